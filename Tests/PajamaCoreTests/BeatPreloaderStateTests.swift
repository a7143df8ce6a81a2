import PajamaCore
import Testing

/// BeatPreloader's one State: idle, disabled (moves start nothing), running(window, task) (a move within
/// the window keeps the task, any other move cancels it).
@Suite struct BeatPreloaderStateTests {
    /// Beat loads that wait until their task is cancelled (recorded at once by the cancelling call) or
    /// released; every load is recorded when it starts waiting.
    final class HeldBeats: Sendable {
        let record = LoadRecord()
        private let holds = Locked<[String: Hold]>([:])

        func load(_ id: String) async throws(AssetLoadError) -> Beat {
            let parked = Hold()
            let record = self.record
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if parked.wait(continuation) {
                        holds.withLock { $0[id] = parked }
                        record.start(id)
                    }
                }
            } onCancel: {
                if parked.end(cancelled: true) { record.cancel(id) }
            }
            if parked.wasCancelled { throw AssetLoadError(.cancelled, subject: "beat \(id)") }
            return beat(id)
        }

        func release(_ id: String) { holds.withLock { $0.removeValue(forKey: id) }?.end(cancelled: false) }
    }

    func preloader(_ beats: HeldBeats, enabled: Bool = true) -> BeatPreloader {
        BeatPreloader(enabled: enabled, loadBeat: { id throws(AssetLoadError) in try await beats.load(id) }, preloadAssets: { _ in })
    }

    @Test func leavingTheWindowCancelsItsWorkAndAMoveWithinItKeepsIt() async {
        let beats = HeldBeats()
        let preloader = preloader(beats)
        await preloader.readerMoved(to: "a", recent: [])
        await beats.record.waitUntilHeld("a")
        // Another page of the same beat: the same window, its load goes on.
        await preloader.readerMoved(to: "a", recent: [])
        #expect(beats.record.cancelled.isEmpty)
        #expect(beats.record.started == ["a"])
        // Elsewhere: the running window's task is cancelled by the move itself.
        await preloader.readerMoved(to: "z", recent: [])
        #expect(beats.record.cancelled == ["a"])
        await beats.record.waitUntilHeld("z")
        beats.release("z")
        await preloader.settle()
        #expect(await preloader.lastWindow == ["z"])
        #expect(beats.record.started == ["a", "z"])
    }

    @Test func aDisabledPreloaderStartsNothing() async {
        let beats = HeldBeats()
        let preloader = preloader(beats, enabled: false)
        await preloader.readerMoved(to: "a", recent: [])
        await preloader.readerMoved(to: "b", recent: ["a"])
        await preloader.settle()
        #expect(beats.record.started.isEmpty)
        #expect(await preloader.lastWindow.isEmpty)
    }
}
