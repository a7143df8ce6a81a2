import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// The preloader's asset loads back to back: the next asset starts when the current transfer is due to
/// end within its round trip (from its progress), not when it ends; a load no longer wanted is cancelled,
/// the ending one included. Fake transfers and a manual clock: the test says when bytes arrive.
@Suite struct AssetBackToBackTests {
    /// A clock the test moves.
    final class ManualNow: Sendable {
        private let instant = Locked(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ milliseconds: Int) { instant.withLock { $0 = $0.advanced(by: .milliseconds(milliseconds)) } }
    }

    /// Asset transfers that wait until the test ends them (`finish`) or their task is cancelled, and
    /// report the bytes the test says arrived (`report`) to their load's progress callback.
    final class HeldTransfers: Sendable {
        let record = LoadRecord()
        private let held = Locked<[String: (hold: Hold, progress: @Sendable (TransferProgress) -> Void)]>([:])

        func load(_ path: AssetPath, progress: @escaping @Sendable (TransferProgress) -> Void) async {
            let parked = Hold()
            let record = self.record, name = path.value
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if parked.wait(continuation) {
                        held.withLock { $0[name] = (parked, progress) }
                        record.start(name)
                    }
                }
            } onCancel: {
                if parked.end(cancelled: true) { record.cancel(name) }
            }
        }

        func report(_ name: String, _ received: Int, of expected: Int) {
            held.withLock { $0[name]?.progress }?(TransferProgress(received: received, expected: expected))
        }

        func finish(_ name: String) {
            held.withLock { $0.removeValue(forKey: name) }?.hold.end(cancelled: false)
        }
    }

    static let pictures = ["one.png", "two.png", "three.png"]

    static func references(of beats: [Beat]) -> [AssetReference] {
        guard beats.contains(where: { $0.id == "a" }) else { return [] }
        return pictures.map { AssetReference(path: try! AssetPath(validating: $0), role: .pageImage, beatId: "a", pageId: "p") }
    }

    func preloader(_ transfers: HeldTransfers, clock: ManualNow, assetLoads: Int = 1) -> BeatPreloader {
        BeatPreloader(policy: .standard, maximumConcurrentAssetLoads: assetLoads,
                      loadBeat: { id throws(AssetLoadError) in beat(id) },
                      assetOrder: { Self.references(of: $0) },
                      loadAsset: { reference, progress in await transfers.load(reference.path, progress: progress) },
                      now: { clock.now })
    }

    /// The asset loads under way, sorted, those due to end within their round trip marked "(ending)".
    func loading(_ preloader: BeatPreloader) async -> [String] {
        let assets = await preloader.loadingAssets
        return assets.all.map { assets.ending.contains($0) ? "\($0.value) (ending)" : $0.value }.sorted()
    }

    @Test func theNextAssetStartsOneRoundTripBeforeTheCurrentTransferEndsAndNotBefore() async {
        let transfers = HeldTransfers(), clock = ManualNow()
        let preloader = preloader(transfers, clock: clock)
        await preloader.readerMoved(to: "a", recent: [])
        await transfers.record.waitUntilHeld("one.png")
        #expect(await loading(preloader) == ["one.png"])
        // The answer's head after 100 ms (the round trip), then 100 KB of 1 MB in 100 ms: 900 ms to go.
        clock.advance(100)
        transfers.report("one.png", 0, of: 1_000_000)
        clock.advance(100)
        transfers.report("one.png", 100_000, of: 1_000_000)
        #expect(await loading(preloader) == ["one.png"])
        // 920 KB in: the last 80 KB take 80 ms, within the 100 ms round trip: two is asked for now,
        // while one is still coming; three waits (one transfer on the link, one ending).
        clock.advance(820)
        transfers.report("one.png", 920_000, of: 1_000_000)
        await transfers.record.waitUntilHeld("two.png")
        #expect(await loading(preloader) == ["one.png (ending)", "two.png"])
        #expect(transfers.record.started == ["one.png", "two.png"])
        // One ends: two still holds the link, so three still waits.
        transfers.finish("one.png")
        #expect(await eventually { await loading(preloader) == ["two.png"] })
        #expect(transfers.record.started == ["one.png", "two.png"])
        // Two's whole body at once (a small file): three starts.
        transfers.report("two.png", 5_000, of: 5_000)
        await transfers.record.waitUntilHeld("three.png")
        transfers.finish("two.png")
        transfers.finish("three.png")
        await preloader.settle()
        #expect(transfers.record.started == Self.pictures)
        #expect(transfers.record.cancelled.isEmpty)
    }

    @Test func aMoveCancelsTheAssetsNoLongerWantedTheEndingOneIncluded() async {
        let transfers = HeldTransfers(), clock = ManualNow()
        let preloader = preloader(transfers, clock: clock)
        await preloader.readerMoved(to: "a", recent: [])
        await transfers.record.waitUntilHeld("one.png")
        clock.advance(100)
        transfers.report("one.png", 0, of: 100_000)
        clock.advance(10)
        transfers.report("one.png", 50_000, of: 100_000)
        await transfers.record.waitUntilHeld("two.png")
        // The reader goes to x, a story part a is not near (neither ahead nor among the beats behind):
        // a's pictures are no longer wanted, and both loads stop, the ending one too.
        await preloader.readerMoved(to: "x", recent: ["y", "z"])
        #expect(Set(transfers.record.cancelled) == ["one.png", "two.png"])
        #expect(await loading(preloader).isEmpty)
        await preloader.settle()
        #expect(!transfers.record.started.contains("three.png"))
    }

    @Test func withTwoAtOnceTwoTransfersShareTheLinkAndEachEndingOneLetsTheNextStart() async {
        let transfers = HeldTransfers(), clock = ManualNow()
        let preloader = preloader(transfers, clock: clock, assetLoads: 2)
        await preloader.readerMoved(to: "a", recent: [])
        await transfers.record.waitUntilHeld("one.png")
        await transfers.record.waitUntilHeld("two.png")
        #expect(await loading(preloader) == ["one.png", "two.png"])
        clock.advance(100)
        transfers.report("two.png", 0, of: 20_000)
        clock.advance(10)
        transfers.report("two.png", 15_000, of: 20_000)
        await transfers.record.waitUntilHeld("three.png")
        #expect(await loading(preloader) == ["one.png", "three.png", "two.png (ending)"])
        for name in Self.pictures { transfers.finish(name) }
        await preloader.settle()
        #expect(transfers.record.cancelled.isEmpty)
    }
}
