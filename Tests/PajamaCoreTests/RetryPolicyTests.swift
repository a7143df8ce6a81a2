import PajamaCore
import Testing

/// Counts attempts and fails each one with a chosen error.
actor AttemptLog {
    private(set) var count = 0
    func record() { count += 1 }
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

@Suite struct RetryPolicyTests {
    static let forever = Duration.seconds(3600)

    /// A policy on `clock` whose progress timeout (an hour) never matches a backoff pause.
    func policy(_ clock: ManualClock, attempts: Int, base: Duration = .milliseconds(100), maximum: Duration = .milliseconds(300),
                deadline: Duration = .seconds(7200), jitter: Double = 0) -> RetryPolicy {
        RetryPolicy(attempts: attempts, baseDelay: base, maximumDelay: maximum, progressTimeout: Self.forever, deadline: deadline,
                    clock: clock, jitter: { jitter })
    }

    /// Runs `policy` on an operation that fails with `kind` every time; returns the pauses taken between
    /// attempts (advancing the clock through each) and the final error.
    func failEveryTime(_ policy: RetryPolicy, clock: ManualClock, kind: AssetLoadError.Kind, pauses: Int,
                       isPause: @escaping (Duration) -> Bool = { $0 < RetryPolicyTests.forever })
        async -> (pauses: [Duration], error: AssetLoadError?, attempts: Int)
    {
        let log = AttemptLog()
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    await log.record()
                    throw AssetLoadError(kind, subject: "x")
            } }
        var taken: [Duration] = []
        for _ in 0..<pauses {
            let pause = await clock.waitForSleeper(isPause)
            taken.append(pause)
            clock.advance(by: pause)
        }
        let error = await run.value
        return (taken, error, await log.count)
    }

    @Test func backoffDoublesAndIsCapped() async {
        let clock = ManualClock()
        let result = await failEveryTime(policy(clock, attempts: 5), clock: clock, kind: .network, pauses: 4)
        #expect(result.pauses == [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300)])
        #expect(result.attempts == 5)
        #expect(result.error?.kind == .network)
    }

    @Test func jitterAddsAtMostAQuarter() async {
        let clock = ManualClock()
        let result = await failEveryTime(policy(clock, attempts: 4, jitter: 1), clock: clock, kind: .timeout, pauses: 3)
        #expect(result.pauses == [.milliseconds(125), .milliseconds(250), .milliseconds(375)])
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
            let clock = ManualClock()
            let result = await failEveryTime(policy(clock, attempts: 5), clock: clock, kind: kind, pauses: 0)
            #expect(result.attempts == 1)
            #expect(result.error?.kind == kind)
            #expect(!clock.sleepRequests.contains { $0 < Self.forever })  // no backoff pause was asked for
        }
    }

    @Test func anAttemptThatHangsTimesOut() async {
        let clock = ManualClock()
        let policy = RetryPolicy(attempts: 1, progressTimeout: .seconds(5), deadline: .seconds(60), clock: clock)
        let run = Task { await failure(of: policy, subject: "hang") { () throws(AssetLoadError) -> Int in
                    // Waits on the clock for a day, reporting nothing: only the progress timeout can end it.
                    do { try await clock.sleep(for: .seconds(86_400)) } catch { throw AssetLoadError(.cancelled, subject: "hang") }
                    return 1
            } }
        _ = await clock.waitForSleeper { $0 == .seconds(5) }
        clock.advance(by: .seconds(5))
        let error = await run.value
        #expect(error?.kind == .timeout)
        #expect(error?.detail == "no progress for 5 s")
    }

    @Test func theOverallDeadlineStopsRetrying() async {
        let clock = ManualClock()
        // Pauses of 1 s; the deadline of 2.5 s allows attempts at 0, 1 and 2 s, and no pause to 3 s. (Each
        // attempt's progress timeout is an hour: never 1 s.)
        let policy = policy(clock, attempts: 10, base: .seconds(1), maximum: .seconds(1), deadline: .milliseconds(2500))
        let result = await failEveryTime(policy, clock: clock, kind: .network, pauses: 2) { $0 == .seconds(1) }
        #expect(result.attempts == 3)
        #expect(result.error?.kind == .network)
        #expect(result.error?.detail.contains("deadline") == true)
    }

    /// A transfer that keeps receiving (a byte every 4 s, under the 5 s progress timeout) runs for 20 s,
    /// far past the 3 s deadline, and succeeds: only silence ends an attempt. (Before: every attempt was
    /// cut at min(attempt timeout, what was left of the deadline), here 3 s.)
    @Test func aProgressingAttemptRunsPastTheDeadline() async throws {
        let clock = ManualClock()
        let policy = RetryPolicy(attempts: 1, progressTimeout: .seconds(5), deadline: .seconds(3), clock: clock)
        let received = AttemptLog()
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "big", activity: { await received.count }) { () throws(AssetLoadError) -> Int in
                for _ in 0..<5 {
                    do { try await clock.sleep(for: .seconds(4)) } catch { throw AssetLoadError(.cancelled, subject: "big") }
                    await received.record()
                }
                return 7
            }
        }
        for _ in 0..<5 {
            _ = await clock.waitForSleeper { $0 == .seconds(4) }
            clock.advance(by: .seconds(4))
        }
        #expect(try await run.value == 7)
    }

    /// An attempt that received something before failing does not use up an attempt or the deadline:
    /// with `attempts: 2`, three cut transfers that each made progress are followed by a fourth attempt.
    @Test func anAttemptThatProgressedDoesNotCountAgainstTheAttempts() async throws {
        let clock = ManualClock()
        let policy = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(100),
                                 progressTimeout: Self.forever, deadline: .seconds(60), clock: clock, jitter: { 0 })
        let log = AttemptLog()
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "cut", activity: { await log.count }) { () throws(AssetLoadError) -> Int in
                await log.record()  // some bytes arrived, then the connection was cut
                if await log.count < 4 { throw AssetLoadError(.network, subject: "cut", detail: "truncated") }
                return 4
            }
        }
        for _ in 0..<3 { clock.advance(by: await clock.waitForSleeper { $0 == .milliseconds(100) }) }
        #expect(try await run.value == 4)
    }

    /// ...but only `maximumRenewals` times: a server that cuts every answer (and ignores Range) does not
    /// keep the reader waiting forever.
    @Test func renewalsAfterProgressAreBounded() async throws {
        let clock = ManualClock()
        var policy = RetryPolicy(attempts: 2, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(100),
                                 progressTimeout: Self.forever, deadline: .seconds(60), clock: clock, jitter: { 0 })
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
        for _ in 0..<3 { clock.advance(by: await clock.waitForSleeper { $0 == .milliseconds(100) }) }
        #expect(await run.value?.kind == .network)
        #expect(await log.count == 4)  // three renewals, then the second of two counted attempts
    }

    @Test func cancellationStopsAtOnceDuringABackoffPause() async {
        let clock = ManualClock()
        let policy = policy(clock, attempts: 5)
        let log = AttemptLog()
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    await log.record()
                    throw AssetLoadError(.network, subject: "x")
            } }
        _ = await clock.waitForSleeper { $0 == .milliseconds(100) }
        run.cancel()  // the clock never moves: only cancellation can end the pause
        let error = await run.value
        #expect(error?.kind == .cancelled)
        #expect(await log.count == 1)
    }

    @Test func cancellationStopsARunningAttempt() async {
        let clock = ManualClock()
        let policy = policy(clock, attempts: 5)
        let run = Task { await failure(of: policy, subject: "x") { () throws(AssetLoadError) -> Int in
                    do { try await clock.sleep(for: .seconds(86_400)) } catch { throw AssetLoadError(.cancelled, subject: "x") }
                    return 1
            } }
        _ = await clock.waitForSleeper { $0 == .seconds(86_400) }
        run.cancel()
        let error = await run.value
        #expect(error?.kind == .cancelled)
        #expect(!clock.sleepRequests.contains { $0 == .milliseconds(100) })  // no retry was scheduled
    }

    @Test func aTransientFailureThenSuccessReturnsTheValue() async throws {
        let clock = ManualClock()
        let policy = policy(clock, attempts: 3)
        let log = AttemptLog()
        let run = Task { () async throws(AssetLoadError) -> Int in
            try await policy.run(subject: "x") { () throws(AssetLoadError) -> Int in
                await log.record()
                if await log.count == 1 { throw AssetLoadError(.network, subject: "x") }
                return 42
            }
        }
        clock.advance(by: await clock.waitForSleeper { $0 < Self.forever })
        #expect(try await run.value == 42)
        #expect(await log.count == 2)
    }
}
