import Foundation
import PajamaLoading
import PajamaModel
import Testing

/// When the Loading screen hears of bytes arriving: by size for a fast load, and at least every
/// `interval` for a slow one (a drip of 1 byte a second). No real time: the reporter's clock is moved
/// by the test.
@Suite struct LoadActivityTests {
    /// A clock the test moves by hand.
    final class ManualTime: Sendable {
        private let instant = Locked(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
    }

    /// The `received` counts of the `.progress` events published while `feed` reports.
    func published(feed: (@Sendable (TransferProgress) -> Void, ManualTime) -> Void) -> [Int] {
        let seen = Locked<[Int]>([])
        let hub = LoadingEventHub(onPublish: { event in
            if case .progress(_, let progress) = event { seen.withLock { $0.append(progress.received) } }
        })
        let time = ManualTime()
        let activity = LoadActivity<String>(events: hub, interval: .milliseconds(500), now: { time.now })
        feed(activity.reporter(for: "k", subject: .beat("k")), time)
        #expect(activity.count("k") > 0)
        return seen.withLock { $0 }
    }

    /// 1 byte every 0.25 s of a 4 KB file: an event every 0.5 s (every second byte), where the size step
    /// alone (16 KB) published only the first byte for the whole hour the file takes. (Failed before: [1].)
    @Test func aDripIsPublishedAtLeastEveryInterval() {
        let counts = published { report, time in
            for received in 1...9 {
                report(TransferProgress(received: received, expected: 4096))
                time.advance(by: .milliseconds(250))
            }
        }
        #expect(counts == [1, 3, 5, 7, 9])
    }

    /// No time passing: only the size steps (2% of 1 MB) and the end are published.
    @Test func aFastLoadIsPublishedBySizeOnly() {
        let size = 1 << 20
        let counts = published { report, _ in
            for received in stride(from: 1024, through: size, by: 1024) { report(TransferProgress(received: received, expected: size)) }
        }
        #expect(counts.first == 1024 && counts.last == size, "\(counts)")
        #expect(counts.count <= 52, "\(counts.count) events for 1 MB")
        #expect(zip(counts.dropFirst(), counts).dropLast().allSatisfy { $0 - $1 >= size / 50 }, "\(counts)")
    }

    /// No new byte (the same count reported again), however long: nothing new to say.
    @Test func noNewByteIsNotPublishedAgain() {
        let counts = published { report, time in
            for _ in 0..<5 {
                report(TransferProgress(received: 10, expected: 4096))
                time.advance(by: .seconds(1))
            }
        }
        #expect(counts == [10])
    }
}
