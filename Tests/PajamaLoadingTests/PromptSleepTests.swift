import Foundation
@testable import PajamaLoading
@testable import PajamaModel
import PajamaTestSupport
import Testing

/// A load's progress watchdog (a sleep of `progressTimeout`, 20 s by default) keeps nothing once the load
/// ended: Swift's `Task.sleep` kept its timer and task until the deadline though cancelled, so reading
/// 10,000 pages fast kept 4 MB of them (issue 27, `pajama-bench memory`).
@Suite struct PromptSleepTests {
    @Test func aLoadsWatchdogIsGoneOnceTheLoadEnded() async throws {
        let ledger = Locked(0)
        let retry = RetryPolicy(attempts: 1, progressTimeout: .seconds(3600))
        let watched = Locked(0)
        try await PromptSleep.$ledger.withValue(ledger) {
            for index in 0..<50 {
                let value = try await retry.run(subject: "beats/a.json", activity: { 0 }) { () async throws(AssetLoadError) -> Int in
                    // The first load waits until its watchdog is asleep beside it.
                    if index == 0, await eventually({ ledger.withLock { $0 } == 1 }) { watched.withLock { $0 += 1 } }
                    return 7
                }
                #expect(value == 7)
                // The load ended: its hour-long watchdog was cancelled, and its timer with it.
                #expect(ledger.withLock { $0 } == 0)
            }
        }
        #expect(watched.withLock { $0 } == 1)
    }

    @Test func aSleepThatIsNotCancelledEndsAtItsDeadline() async throws {
        let ledger = Locked(0)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(30))
        try await PromptSleep.$ledger.withValue(ledger) {
            try await PromptSleep.sleep(until: deadline, on: clock)
        }
        #expect(clock.now >= deadline)
        #expect(ledger.withLock { $0 } == 0)
    }

    @Test func aCancelledSleepEndsAtOnceWithCancellation() async throws {
        let ledger = Locked(0)
        let sleeper = Task {
            try await PromptSleep.$ledger.withValue(ledger) {
                try await PromptSleep.sleep(until: ContinuousClock.now.advanced(by: .seconds(3600)), on: ContinuousClock())
            }
        }
        #expect(await eventually { ledger.withLock { $0 } == 1 })
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(ledger.withLock { $0 } == 0)
    }
}
