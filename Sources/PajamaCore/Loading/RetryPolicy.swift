/// Retries with exponential backoff and jitter, a per-attempt timeout and an overall deadline.
///
/// All waiting and all time measurement go through `clock` (any `Clock<Duration>`), so tests drive it
/// with a manual clock and never sleep. Only transient failures (`AssetLoadError.isTransient`: network
/// and timeout) are retried; cancellation stops at once, whether in an attempt or in a backoff pause.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (at least 1).
    public var attempts: Int
    /// The pause before the second attempt; each later pause doubles, up to `maximumDelay`.
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// How long one attempt may take before it is abandoned as a timeout.
    public var attemptTimeout: Duration
    /// How long all attempts and pauses together may take; no attempt or pause runs past it.
    public var deadline: Duration
    /// The clock every pause, timeout and deadline is measured on.
    public var clock: any Clock<Duration>
    /// A number in 0...1 per pause, scaled to up to 25% extra delay (random by default).
    public var jitter: @Sendable () -> Double

    public init(attempts: Int = 3, baseDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2),
                attemptTimeout: Duration = .seconds(10), deadline: Duration = .seconds(20),
                clock: any Clock<Duration> = ContinuousClock(), jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.attemptTimeout = attemptTimeout
        self.deadline = deadline
        self.clock = clock
        self.jitter = jitter
    }

    /// The delay before attempt `n` (1-based, n >= 2): base * 2^(n-2), capped at `maximumDelay`, plus
    /// `jitter` (clamped to 0...1) times 25% of that.
    public func delay(beforeAttempt n: Int, jitter: Double) -> Duration {
        let factor = 1 << min(16, max(0, n - 2))
        let raw = min(baseDelay * factor, maximumDelay)
        return raw + raw * (0.25 * min(1, max(0, jitter)))
    }

    /// Runs `operation`, retrying transient failures (network, timeout); others fail at once. `clock`
    /// replaces the policy's clock for this run.
    public func run<T: Sendable>(
        subject: String, clock: (any Clock<Duration>)? = nil,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        let chosen: any Clock<Duration> = clock ?? self.clock
        return try await run(subject: subject, on: chosen, operation)
    }

    private func run<C: Clock<Duration>, T: Sendable>(
        subject: String, on clock: C, _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        let end = clock.now.advanced(by: deadline)
        var lastError = AssetLoadError(.timeout, subject: subject)
        for attempt in 1...attempts {
            if attempt > 1 {
                let pause = delay(beforeAttempt: attempt, jitter: jitter())
                let resume = clock.now.advanced(by: pause)
                if resume >= end { throw gaveUp(lastError) }
                do { try await clock.sleep(until: resume, tolerance: nil) } catch {
                    throw AssetLoadError(.cancelled, subject: subject)
                }
            }
            if Task.isCancelled { throw AssetLoadError(.cancelled, subject: subject) }
            let remaining = clock.now.duration(to: end)
            if remaining <= .zero { throw gaveUp(lastError) }
            do {
                return try await withTimeout(min(attemptTimeout, remaining), subject: subject, clock: clock, operation)
            } catch {
                lastError = error
                if Task.isCancelled { throw AssetLoadError(.cancelled, subject: subject) }
                if !error.isTransient { throw error }
            }
        }
        throw lastError
    }

    private func gaveUp(_ error: AssetLoadError) -> AssetLoadError {
        var error = error
        let note = "gave up after the \(deadline) deadline"
        error.detail = error.detail.isEmpty ? note : error.detail + "; " + note
        return error
    }

    private func withTimeout<C: Clock<Duration>, T: Sendable>(
        _ limit: Duration, subject: String, clock: C,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        do {
            return try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await clock.sleep(until: clock.now.advanced(by: limit), tolerance: nil)
                    throw AssetLoadError(.timeout, subject: subject, detail: "no answer within \(limit)")
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw AssetLoadError(.cancelled, subject: subject) }
                return first
            }
        } catch let error as AssetLoadError {
            throw error
        } catch {
            throw AssetLoadError(.cancelled, subject: subject)
        }
    }
}
