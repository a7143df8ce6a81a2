import Clocks
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// Counts attempts (and, when given, the clock's time at each), and tells each on a stream, so a test
/// awaits the attempt it expects instead of polling the count.
actor AttemptLog {
    private(set) var count = 0
    private(set) var times: [Duration] = []
    private let counted: AsyncStream<Int>
    private let tell: AsyncStream<Int>.Continuation

    init() { (counted, tell) = AsyncStream.makeStream(of: Int.self) }

    func record(at time: Duration? = nil) {
        count += 1
        if let time { times.append(time) }
        tell.yield(count)
    }

    /// Returns once `n` attempts have been recorded.
    func reached(_ n: Int) async {
        guard count < n else { return }
        for await count in counted where count >= n { return }
    }
}

/// Counts the backoff pauses a policy began: its jitter is asked for once per pause, right before it
/// sleeps (after the failed attempt and its watchdog have ended), so a sleeper on the clock is then that
/// pause. Each pause is told on a stream, so a test awaits the pause it expects instead of polling.
final class PauseCount: Sendable {
    private let value = Locked(0)
    private let begun: AsyncStream<Int>
    private let tell: AsyncStream<Int>.Continuation
    let jitter: Double

    init(jitter: Double = 0) {
        self.jitter = jitter
        (begun, tell) = AsyncStream.makeStream(of: Int.self)
    }

    var count: Int { value.withLock { $0 } }

    func next() -> Double {
        tell.yield(value.withLock { $0 += 1; return $0 })
        return jitter
    }

    /// Returns once pause number `n` has begun (the counts come in order; one waiter at a time).
    func began(_ n: Int) async {
        guard count < n else { return }
        for await count in begun where count >= n { return }
    }
}

/// The error `policy` ends with, or nil when the operation succeeded.
func failure(of policy: RetryPolicy, subject: String, _ operation: @escaping @Sendable () async throws(AssetLoadError) -> Int)
    async -> AssetLoadError?
{
    do throws(AssetLoadError) {
        _ = try await policy.run(subject: subject, operation)
        return nil
    } catch {
        return error
    }
}

@Suite(.timeLimit(.minutes(1))) struct RetryPolicyTests {
    static let forever = Duration.seconds(3600)

    /// A policy on `clock` whose progress timeout (an hour) never matches a backoff pause.
    func policy(_ clock: TestClock<Duration>, _ pauses: PauseCount, attempts: Int, base: Duration = .milliseconds(100),
                maximum: Duration = .milliseconds(300), deadline: Duration = .seconds(7200)) -> RetryPolicy {
        RetryPolicy(attempts: attempts, baseDelay: base, maximumDelay: maximum, progressTimeout: Self.forever, deadline: deadline,
                    clock: clock, jitter: { pauses.next() })
    }

    /// Waits for pause number `n` to begin (the policy asked for its jitter and sleeps), then moves the
    /// clock on by `duration`.
    func pass(pause n: Int, of pauses: PauseCount, on clock: TestClock<Duration>, by duration: Duration) async {
        await pauses.began(n)
        #expect(await clock.waitForSleeper(), "no sleeper for pause \(n)")
        await clock.advance(by: duration)
    }

    /// Runs `policy` on an operation that fails with `kind` every time, moving the clock through the
    /// `expected` pauses one by one; returns the pauses measured between attempts, the final error and
    /// the number of attempts. A pause longer than expected never ends (the test fails waiting); a
    /// shorter one shows in the measured pauses.
    func failEveryTime(_ policy: RetryPolicy, clock: TestClock<Duration>, pauses: PauseCount, kind: AssetLoadError.Kind,
                       expected: [Duration]) async -> (pauses: [Duration], error: AssetLoadError?, attempts: Int)
    {
        let log = AttemptLog()
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    await log.record(at: clock.elapsed)
                    throw AssetLoadError(kind, subject: "x")
            } }
        for (index, pause) in expected.enumerated() {
            await pass(pause: index + 1, of: pauses, on: clock, by: pause)
            await log.reached(index + 2)
        }
        let error = await run.value
        let times = await log.times
        let measured = zip(times.dropFirst(), times).map { $0 - $1 }
        return (measured, error, await log.count)
    }

    @Test func backoffDoublesAndIsCapped() async {
        let clock = TestClock()
        let pauses = PauseCount()
        let expected: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300)]
        let result = await failEveryTime(policy(clock, pauses, attempts: 5), clock: clock, pauses: pauses, kind: .network, expected: expected)
        #expect(result.pauses == expected)
        #expect(result.attempts == 5)
        #expect(result.error?.kind == .network)
    }

    @Test func jitterAddsAtMostAQuarter() async {
        let clock = TestClock()
        let pauses = PauseCount(jitter: 1)
        let expected: [Duration] = [.milliseconds(125), .milliseconds(250), .milliseconds(375)]
        let result = await failEveryTime(policy(clock, pauses, attempts: 4), clock: clock, pauses: pauses, kind: .timeout, expected: expected)
        #expect(result.pauses == expected)
        let plain = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(10))
        for attempt in 2...8 {
            let low = plain.delay(beforeAttempt: attempt, jitter: 0)
            for jitter in [-3.0, 0.1, 0.5, 0.99, 1, 7] {
                let d = plain.delay(beforeAttempt: attempt, jitter: jitter)
                #expect(d >= low && d <= low + low / 4)
            }
        }
    }

    @Test func nonTransientErrorsAreNotRetried() async {
        for kind in [AssetLoadError.Kind.notFound, .decoding, .invalidFormat, .tooLarge, .forbiddenPath, .notAStory] {
            let clock = TestClock()
            let pauses = PauseCount()
            let result = await failEveryTime(policy(clock, pauses, attempts: 5), clock: clock, pauses: pauses, kind: kind, expected: [])
            #expect(result.attempts == 1)
            #expect(result.error?.kind == kind)
            #expect(pauses.count == 0)  // no backoff pause was asked for
        }
    }

    @Test func anAttemptThatHangsTimesOut() async {
        let clock = TestClock()
        let policy = RetryPolicy(attempts: 1, progressTimeout: .seconds(5), deadline: .seconds(60), clock: clock)
        let done = AttemptLog()
        let run = Task {
            let error = await failure(of: policy, subject: "hang") { () throws(AssetLoadError) -> Int in
                // Waits on the clock for a day, reporting nothing: only the progress timeout can end it.
                do { try await clock.sleep(for: .seconds(86_400)) } catch { throw AssetLoadError(.cancelled, subject: "hang") }
                return 1
            }
            await done.record()
            return error
        }
        // Five seconds at a time until the attempt ends (the watchdog may fall asleep after the first steps).
        let realDeadline = ContinuousClock.now.advanced(by: .seconds(60))
        while await done.count == 0, ContinuousClock.now < realDeadline {
            await clock.advance(by: .seconds(5))
        }
        #expect(clock.elapsed < .seconds(86_400))
        run.cancel()  // only when the above failed: the run has ended otherwise
        let error = await run.value
        #expect(error?.kind == .timeout)
        #expect(error?.detail == "no progress for 5 s")
    }

    @Test func theOverallDeadlineStopsRetrying() async {
        let clock = TestClock()
        let pauses = PauseCount()
        // Pauses of 1 s; the deadline of 2.5 s allows attempts at 0, 1 and 2 s, and no pause to 3 s.
        let policy = policy(clock, pauses, attempts: 10, base: .seconds(1), maximum: .seconds(1), deadline: .milliseconds(2500))
        let result = await failEveryTime(policy, clock: clock, pauses: pauses, kind: .network, expected: [.seconds(1), .seconds(1)])
        #expect(result.attempts == 3)
        #expect(result.error?.kind == .network)
        #expect(result.error?.detail.contains("deadline") == true)
    }

    /// A transfer that keeps receiving (a byte every 4 s, under the 5 s progress timeout) runs for 20 s,
    /// far past the 3 s deadline, and succeeds: only silence ends an attempt. (Before: every attempt was
    /// cut at min(attempt timeout, what was left of the deadline), here 3 s.)
    @Test func aProgressingAttemptRunsPastTheDeadline() async throws {
        let clock = TestClock()
        let policy = RetryPolicy(attempts: 1, progressTimeout: .seconds(5), deadline: .seconds(3), clock: clock)
        let received = AttemptLog()
        // A byte arrives when the test hands it over, after moving the clock on by 4 s (the watchdog checks
        // every 5 s, so each of its checks sees a byte that arrived after the one before).
        let (bytes, arrive) = AsyncStream.makeStream(of: Void.self)
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "big", activity: { await received.count }) { () throws(AssetLoadError) -> Int in
                for await _ in bytes {
                    await received.record()
                    if await received.count == 5 { return 7 }
                }
                throw AssetLoadError(.cancelled, subject: "big")
            }
        }
        for n in 1...5 {
            await clock.advance(by: .seconds(4))
            arrive.yield()
            await received.reached(n)
        }
        #expect(try await run.value == 7)
        #expect(clock.elapsed == .seconds(20))
    }

    /// An attempt that received something before failing does not use up an attempt or the deadline:
    /// with `attempts: 2`, three cut transfers that each made progress are followed by a fourth attempt.
    @Test func anAttemptThatProgressedDoesNotCountAgainstTheAttempts() async throws {
        let clock = TestClock()
        let pauses = PauseCount()
        let policy = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(100),
                                 progressTimeout: Self.forever, deadline: .seconds(60), clock: clock, jitter: { pauses.next() })
        let log = AttemptLog()
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "cut", activity: { await log.count }) { () throws(AssetLoadError) -> Int in
                await log.record()  // some bytes arrived, then the connection was cut
                if await log.count < 4 { throw AssetLoadError(.network, subject: "cut", detail: "truncated") }
                return 4
            }
        }
        for n in 1...3 { await pass(pause: n, of: pauses, on: clock, by: .milliseconds(100)) }
        #expect(try await run.value == 4)
    }

    /// ...but only `maximumRenewals` times: a server that cuts every answer (and ignores Range) does not
    /// keep the reader waiting forever.
    @Test func renewalsAfterProgressAreBounded() async throws {
        let clock = TestClock()
        let pauses = PauseCount()
        var policy = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(100),
                                 progressTimeout: Self.forever, deadline: .seconds(60), clock: clock, jitter: { pauses.next() })
        policy.maximumRenewals = 3
        let log = AttemptLog()
        let run = Task { () async -> AssetLoadError? in
            do throws(AssetLoadError) {
                _ = try await policy.run(subject: "cut", activity: { await log.count }) { () throws(AssetLoadError) -> Int in
                    await log.record()
                    throw AssetLoadError(.network, subject: "cut", detail: "truncated")
                }
                return nil
            } catch {
                return error
            }
        }
        for n in 1...3 { await pass(pause: n, of: pauses, on: clock, by: .milliseconds(100)) }
        #expect(await run.value?.kind == .network)
        #expect(await log.count == 4)  // three renewals, then the second of two counted attempts
    }

    @Test func cancellationStopsAtOnceDuringABackoffPause() async {
        let clock = TestClock()
        let pauses = PauseCount()
        let policy = policy(clock, pauses, attempts: 5)
        let log = AttemptLog()
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    await log.record()
                    throw AssetLoadError(.network, subject: "x")
            } }
        await pauses.began(1)
        #expect(await clock.waitForSleeper())
        run.cancel()  // the clock never moves: only cancellation can end the pause
        let error = await run.value
        #expect(error?.kind == .cancelled)
        #expect(await log.count == 1)
    }

    @Test func cancellationStopsARunningAttempt() async {
        let clock = TestClock()
        let pauses = PauseCount()
        let policy = policy(clock, pauses, attempts: 5)
        let started = AttemptLog()
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    await started.record()
                    do { try await clock.sleep(for: .seconds(86_400)) } catch { throw AssetLoadError(.cancelled, subject: "x") }
                    return 1
            } }
        await started.reached(1)
        run.cancel()
        let error = await run.value
        #expect(error?.kind == .cancelled)
        #expect(pauses.count == 0)  // no retry was scheduled
    }

    @Test func aTransientFailureThenSuccessReturnsTheValue() async throws {
        let clock = TestClock()
        let pauses = PauseCount()
        let policy = policy(clock, pauses, attempts: 3)
        let log = AttemptLog()
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "x") { () throws(AssetLoadError) -> Int in
                await log.record()
                if await log.count == 1 { throw AssetLoadError(.network, subject: "x") }
                return 42
            }
        }
        await pass(pause: 1, of: pauses, on: clock, by: .milliseconds(100))
        #expect(try await run.value == 42)
        #expect(await log.count == 2)
    }
}
