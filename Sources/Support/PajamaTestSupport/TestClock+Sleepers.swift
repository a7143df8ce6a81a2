import Clocks
import Foundation

/// Waiting for a task to fall asleep on swift-clocks' `TestClock`, so a test moves time only once the
/// code under test is waiting on it. Polls `checkSuspension()` (which lets other tasks run first) with a
/// real deadline that only guards against a hang; nothing is assumed about how long the code takes.
extension TestClock where Duration == Swift.Duration {
    /// How far the clock has moved since it was made.
    public var elapsed: Duration { Instant().duration(to: now) }

    /// True when some task is asleep on the clock now.
    public var hasSleeper: Bool {
        get async {
            do {
                try await checkSuspension()
                return false
            } catch {
                return true
            }
        }
    }

    /// Returns once some task is asleep on the clock; false when none was within `timeout` (a hang).
    @discardableResult
    public func waitForSleeper(timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if await hasSleeper { return true }
            await Task.yield()
        }
        return false
    }
}
