import Logging
import PajamaModel
import PajamaStorage
import Synchronization

/// Retries with exponential backoff and jitter, a *progress* timeout per attempt and an overall deadline.
///
/// An attempt is never cut because it takes long, only because it stopped progressing: it fails as a
/// timeout when its `activity` (bytes received so far, reported by the caller) has not moved for
/// `progressTimeout`. The deadline bounds time spent without progress: no new attempt or pause starts
/// once `deadline` has passed since the last progress (or the start), and a running attempt is never
/// interrupted by it. An attempt that made progress before failing (a cut transfer, which the HTTP source
/// resumes with a Range request) does not count against `attempts` (up to `maximumRenewals` times).
///
/// All waiting and all time measurement go through `clock` (any `Clock<Duration>`), so tests drive it
/// with a manual clock and never sleep. Only transient failures (`AssetLoadError.isTransient`: network,
/// server errors and timeouts) are retried; cancellation stops at once, in an attempt or in a pause.
public struct RetryPolicy: Sendable {
    /// Attempts in all without progress, the first included (at least 1).
    public var attempts: Int
    /// The pause before the second attempt; each later pause doubles, up to `maximumDelay`.
    public var baseDelay: Duration
    public var maximumDelay: Duration
    /// How long an attempt may go without progress before it is abandoned as a timeout. A safety net:
    /// the HTTP source has its own, shorter one (no byte for 10 s) that names the file.
    public var progressTimeout: Duration
    /// How long attempts and pauses may go on without progress; no new attempt or pause starts past it.
    public var deadline: Duration
    /// How many times an attempt that progressed before failing may renew the attempts and the deadline.
    public var maximumRenewals = 10
    /// The clock every pause, timeout and deadline is measured on.
    public var clock: any Clock<Duration>
    /// A number in 0...1 per pause, scaled to up to 25% extra delay (random by default).
    public var jitter: @Sendable () -> Double

    public init(attempts: Int = 3, baseDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(2),
                progressTimeout: Duration = .seconds(20), deadline: Duration = .seconds(20),
                clock: any Clock<Duration> = ContinuousClock(), jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.progressTimeout = progressTimeout
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

    /// Runs `operation`, retrying transient failures (network, server errors, timeouts); others fail at
    /// once. `activity` tells how far the operation has come (e.g. bytes received, 0 before anything); an
    /// operation without one has to finish within `progressTimeout`. `clock` replaces the policy's clock.
    public func run<T: Sendable>(
        subject: String, clock: (any Clock<Duration>)? = nil, activity: (@Sendable () async -> Int)? = nil,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        let chosen: any Clock<Duration> = clock ?? self.clock
        return try await run(subject: subject, on: chosen, activity: activity ?? { 0 }, operation)
    }

    private func run<C: Clock<Duration>, T: Sendable>(
        subject: String, on clock: C, activity: @escaping @Sendable () async -> Int,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        var end = clock.now.advanced(by: deadline)
        var lastError = AssetLoadError(.timeout, subject: subject)
        var failedAttempts = 0
        var renewals = 0
        while failedAttempts < attempts {
            if failedAttempts > 0 {
                let pause = delay(beforeAttempt: failedAttempts + 1, jitter: jitter())
                let resume = clock.now.advanced(by: pause)
                if resume >= end {
                    PajamaLog.http.notice("giving up on \(subject): \(lastError)", metadata: ["attempts": "\(failedAttempts)"])
                    throw gaveUp(lastError)
                }
                PajamaLog.http.notice("retrying \(subject) in \(pause): \(lastError)", metadata: ["attempt": "\(failedAttempts + 1)"])
                do { try await clock.sleep(until: resume, tolerance: nil) } catch {
                    throw AssetLoadError(.cancelled, subject: subject)
                }
            }
            if Task.isCancelled { throw AssetLoadError(.cancelled, subject: subject) }
            if clock.now >= end { throw gaveUp(lastError) }
            let progressed = ProgressFlag()
            do {
                return try await withProgressTimeout(subject: subject, clock: clock, activity: activity, progressed: progressed, operation)
            } catch {
                lastError = error
                if Task.isCancelled { throw AssetLoadError(.cancelled, subject: subject) }
                if !error.isTransient { throw error }
                if progressed.isSet, renewals < maximumRenewals {
                    // Progress was made: a fresh count and a fresh deadline for the rest (a bounded number
                    // of times: a server that cuts every answer and ignores Range must not loop forever).
                    renewals += 1
                    failedAttempts = 0
                    end = clock.now.advanced(by: deadline)
                }
                failedAttempts += 1
            }
        }
        throw lastError
    }

    private func gaveUp(_ error: AssetLoadError) -> AssetLoadError {
        var error = error
        let note = "gave up: no progress within the \(StorySourceError.seconds(deadline)) deadline"
        error.detail = error.detail.isEmpty ? note : error.detail + "; " + note
        return error
    }

    /// Runs `operation` while a watchdog checks `activity` every `progressTimeout`: unchanged since the
    /// last check (or the start) means no progress for that long, and the attempt fails as a timeout.
    private func withProgressTimeout<C: Clock<Duration>, T: Sendable>(
        subject: String, clock: C, activity: @escaping @Sendable () async -> Int, progressed: ProgressFlag,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        let limit = progressTimeout
        let first = await activity()
        do {
            return try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    var last = first
                    while true {
                        // Cancelled when the operation ends, mostly long before `limit`: a sleep that keeps
                        // nothing once cancelled (`PromptSleep`), since every load starts one.
                        try await PromptSleep.sleep(until: clock.now.advanced(by: limit), on: clock)
                        let now = await activity()
                        if now == last {
                            throw AssetLoadError(.timeout, subject: subject, detail: "no progress for \(StorySourceError.seconds(limit))")
                        }
                        last = now
                        progressed.set()
                    }
                }
                defer { group.cancelAll() }
                guard let result = try await group.next() else { throw AssetLoadError(.cancelled, subject: subject) }
                return result
            }
        } catch let error as AssetLoadError {
            if await activity() != first { progressed.set() }
            throw error
        } catch {
            throw AssetLoadError(.cancelled, subject: subject)
        }
    }
}

/// Whether an attempt made progress (set by its watchdog or when it ends).
final class ProgressFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
