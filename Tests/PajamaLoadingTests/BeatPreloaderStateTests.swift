import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// BeatPreloader's one State: idle, disabled (moves start nothing), running(window, task) (a move within
/// the window keeps the task, any other move cancels it).
@Suite struct BeatPreloaderStateTests {
    /// Beat loads that wait until their task is cancelled (recorded at once by the cancelling call) or
    /// released; every load is recorded when it starts waiting.
    final class HeldBeats: Sendable {
        let record = LoadRecord()
        private let holds = Locked<[String: Hold]>([:])
        /// Beats answered at once, unrecorded (as from memory): every beat released once.
        private let inMemory = Locked<Set<String>>([])
        /// The story's beats (any other id is a beat with one page and no next beat).
        private let story: [String: Beat]

        init(story: [String: Beat] = [:]) { self.story = story }

        func load(_ id: String) async throws(AssetLoadError) -> Beat {
            if inMemory.withLock({ $0.contains(id) }) { return story[id] ?? beat(id) }
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
            return story[id] ?? beat(id)
        }

        func release(_ id: String) {
            inMemory.withLock { _ = $0.insert(id) }
            holds.withLock { $0.removeValue(forKey: id) }?.end(cancelled: false)
        }
    }

    func preloader(_ beats: HeldBeats, enabled: Bool = true) -> BeatPreloader {
        BeatPreloader(policy: .standard, enabled: enabled, loadBeat: { id throws(AssetLoadError) in try await beats.load(id) })
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

    @Test func aStoppedPreloaderCancelsItsLoadsAndStartsNothingMore() async {
        let beats = HeldBeats()
        let preloader = preloader(beats)
        await preloader.readerMoved(to: "a", recent: [])
        await beats.record.waitUntilHeld("a")
        await preloader.stop()
        // The load under way is cancelled by the stop itself, and nothing is left loading.
        #expect(beats.record.cancelled == ["a"])
        #expect(await preloader.loading.isEmpty)
        await preloader.readerMoved(to: "b", recent: ["a"])
        await preloader.storyChanged(beats: nil, assets: nil)
        await preloader.settle()
        #expect(beats.record.started == ["a"])
        #expect(await preloader.lastWindow.isEmpty)
    }

    /// a offers b or c; b -> d, c -> e.
    static let fork: [String: Beat] = [
        "a": PreloadPolicyTests.choice("a", ["b", "c"]),
        "b": beat("b", next: "d"), "c": beat("c", next: "e"), "d": beat("d"), "e": beat("e"),
    ]

    @Test func aMoveCancelsTheLoadsNoLongerWantedAndKeepsTheWantedOnesRunning() async {
        let beats = HeldBeats(story: Self.fork)
        let preloader = preloader(beats)
        await preloader.readerMoved(to: "a", recent: [])
        await beats.record.waitUntilHeld("a")
        beats.release("a")
        // Both targets of a's choice are wanted before the reader chooses.
        await beats.record.waitUntilHeld("b")
        await beats.record.waitUntilHeld("c")
        // The reader took b: c can no longer be reached and its load stops at once; b's goes on.
        await preloader.readerMoved(to: "b", recent: ["a"])
        #expect(beats.record.cancelled == ["c"])
        #expect(await preloader.loading == ["b"])
        beats.release("b")
        await beats.record.waitUntilHeld("d")
        beats.release("d")
        await preloader.settle()
        #expect(await preloader.lastWindow == ["b", "d", "a"])
        // b was loaded once (kept, not sent again); e, past the branch not taken, never started.
        #expect(beats.record.started == ["a", "b", "c", "d"])
    }

    @Test func aLoadStillWantedAfterAMoveIsKeptNotSentAgain() async {
        // The reader moves on from a to b while b's load is under way and b's window still wants it.
        let beats = HeldBeats(story: Self.fork)
        let preloader = BeatPreloader(policy: .standard, maximumConcurrentLoads: 1,
                                      loadBeat: { id throws(AssetLoadError) in try await beats.load(id) })
        await preloader.readerMoved(to: "a", recent: [])
        await beats.record.waitUntilHeld("a")
        beats.release("a")
        await beats.record.waitUntilHeld("b")
        #expect(beats.record.started == ["a", "b"])  // one at a time: c waits
        await preloader.readerMoved(to: "b", recent: ["a"])
        #expect(beats.record.cancelled.isEmpty)
        beats.release("b")
        await beats.record.waitUntilHeld("d")
        beats.release("d")
        await preloader.settle()
        #expect(beats.record.started == ["a", "b", "d"])
        #expect(await preloader.lastWindow == ["b", "d", "a"])
    }
}
