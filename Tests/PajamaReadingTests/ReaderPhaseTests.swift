import Foundation
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// The reader's phases through its public face: a move's load that finishes after the reader moved on
/// changes nothing, a failure goes back or is retried, waiting names what it waits for, and every
/// subscriber gets the events.
@MainActor @Suite struct ReaderPhaseTests {
    typealias Story = ReaderTaskOwnershipTests

    @Test func aBeatArrivingAfterTheReaderMovedOnNeverChangesThePage() async {
        let (manifest, beats) = Story.story()
        let content = HeldContent(manifest: manifest, beats: beats, heldBeats: ["b"])
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        let slow = Task { await vm.changePage(.choose(0)) }
        await content.record.waitUntilHeld("beat b")
        // Waiting, and saying for what: the state carries the subjects.
        #expect(vm.state == .loading(StoryLocation(beatId: "b", pageId: ""), waitingFor: [.beat("b")]))
        await vm.navigateToLocation(StoryLocation(beatId: "c", pageId: "p"))
        #expect(vm.location?.beatId == "c")
        await content.release("beat b")
        await slow.value
        #expect(vm.location?.beatId == "c")
        #expect(vm.history.locations.map(\.beatId) == ["a", "c"])
        #expect(await log.waitFor(.pageEntered(StoryLocation(beatId: "c", pageId: "p"))))
        #expect(!log.events.contains(.pageEntered(StoryLocation(beatId: "b", pageId: "p"))))
        #expect(log.events.contains(.stateChanged(.loading(StoryLocation(beatId: "b", pageId: ""), waitingFor: [.beat("b")]))))
    }

    @Test func backFromAFailedMoveShowsThePageItLeft() async {
        let (manifest, beats) = Story.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        await content.fail("b")
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        await vm.changePage(.choose(0))
        guard case .failed(let failure) = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        #expect(failure.canGoBack && !failure.canSkip && failure.error.kind == .network)
        await vm.changePage(.back)
        #expect(vm.location == StoryLocation(beatId: "a", pageId: "p3"))
        #expect(vm.history.locations.map(\.pageId) == ["p3"])
        // Back again from the page: nothing earlier (the failed move was never recorded).
        await vm.changePage(.back)
        #expect(vm.location == StoryLocation(beatId: "a", pageId: "p3"))
    }

    @Test func retryAfterAFailureEntersThePageAndRecordsIt() async {
        let (manifest, beats) = Story.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        await content.fail("b")
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        await vm.changePage(.choose(0))
        guard case .failed = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        await vm.retry()  // still failing
        guard case .failed = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        await content.heal("b")
        await vm.retry()
        #expect(vm.location?.beatId == "b")
        #expect(vm.history.locations.map(\.beatId) == ["a", "b"])
        await vm.changePage(.back)
        #expect(vm.location?.pageId == "p3")
    }

    @Test func everySubscriberGetsEveryEvent() async {
        let (manifest, beats) = Story.story()
        let vm = ReaderViewModel(content: HeldContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let first = NavigatorEventLog(vm.events()), second = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        await vm.changePage(.choose(1))
        let entered = NavigatorEvent.pageEntered(StoryLocation(beatId: "c", pageId: "p"))
        #expect(await first.waitFor(entered))
        #expect(await second.waitFor(entered))
        #expect(first.events == second.events)
    }
}
