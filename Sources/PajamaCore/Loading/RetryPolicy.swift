/// Retries with exponential backoff and jitter, a per-attempt timeout and an overall deadline.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration
    public var attemptTimeout: Duration
    public var deadline: Duration

    public init(attempts: Int = 3, baseDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2),
                attemptTimeout: Duration = .seconds(10), deadline: Duration = .seconds(20)) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.attemptTimeout = attemptTimeout
        self.deadline = deadline
    }

    /// The delay before attempt `n` (1-based, n >= 2): base * 2^(n-2), capped, with up to 25% jitter.
    public func delay(beforeAttempt n: Int, jitter: Double) -> Duration {
        let factor = 1 << min(16, max(0, n - 2))
        let raw = min(baseDelay * factor, maximumDelay)
        return raw + raw * (0.25 * min(1, max(0, jitter)))
    }

    /// Runs `operation`, retrying transient failures (network, timeout); others fail at once.
    public func run<T: Sendable>(
        subject: String, clock: any Clock<Duration> = ContinuousClock(),
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        let started = ContinuousClock.now
        var lastError = AssetLoadError(.timeout, subject: subject)
        for attempt in 1...attempts {
            if attempt > 1 {
                do { try await clock.sleep(for: delay(beforeAttempt: attempt, jitter: Double.random(in: 0...1))) } catch {
                    throw AssetLoadError(.cancelled, subject: subject)
                }
            }
            if ContinuousClock.now - started > deadline { throw AssetLoadError(.timeout, subject: subject, detail: "gave up after \(deadline)") }
            do {
                return try await withTimeout(attemptTimeout, subject: subject, clock: clock, operation)
            } catch {
                lastError = error
                if !error.isTransient || Task.isCancelled { throw error }
            }
        }
        throw lastError
    }

    private func withTimeout<T: Sendable>(
        _ limit: Duration, subject: String, clock: any Clock<Duration>,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        do {
            return try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await clock.sleep(for: limit)
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
