import Foundation
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// Where a reading starts (`--start`, resuming, restarting) and what that does to the saved progress.
@MainActor @Suite struct StartAndRestartTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func restartingAFinishedStoryClearsFinishedInTheProgressFile() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-restart")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "choose"))
        await vm.changePage(.choose(1))
        await vm.changePage(.advance)
        guard case .finished = vm.state else { Issue.record("expected finished, got \(vm.state)"); return }
        #expect(store.load(storyId: "s").progress?.finished == true)
        await vm.restart()
        #expect(page(vm)?.location == StoryLocation(beatId: "start", pageId: "title"))
        await vm.close()
        let saved = try #require(store.load(storyId: "s").progress)
        #expect(!saved.finished, "restart must clear finished")
        #expect(saved.history == [StoryLocation(beatId: "start", pageId: "title")])
    }

    @Test func aRequestedStartBeginsAFreshHistory() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-fresh")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let earlier = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await earlier.start()
        await earlier.changePage(.advance)
        await earlier.changePage(.advance)
        await earlier.changePage(.choose(0))
        #expect(page(earlier)?.location.beatId == "left")
        await earlier.close()

        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start(at: StoryLocation(beatId: "right", pageId: "p"))
        #expect(page(vm)?.location.beatId == "right")
        #expect(vm.history.locations == [StoryLocation(beatId: "right", pageId: "p")])
        #expect(page(vm)?.canGoBack == false)
        // Back does not jump into the earlier read.
        await vm.changePage(.back)
        #expect(page(vm)?.location.beatId == "right")
        await vm.close()
        #expect(store.load(storyId: "s").progress?.history == [StoryLocation(beatId: "right", pageId: "p")])
    }

    @Test func aRequestedStartIsCheckedAgainstTheStory() async throws {
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let content = FakeContent(manifest: manifest, beats: beats)
        #expect(try await StartLocation.resolve(beat: "left", page: nil, in: content) == StoryLocation(beatId: "left", pageId: "p"))
        #expect(try await StartLocation.resolve(beat: "start", page: "choose", in: content) == StoryLocation(beatId: "start", pageId: "choose"))
        await #expect(throws: StartLocation.Problem.noSuchBeat("nosuch", known: ["start", "left", "right"])) {
            _ = try await StartLocation.resolve(beat: "nosuch", page: nil, in: content)
        }
        await #expect(throws: StartLocation.Problem.noSuchPage("nosuch", beat: "start", known: ["title", "text", "choose"])) {
            _ = try await StartLocation.resolve(beat: "start", page: "nosuch", in: content)
        }
        let many = StartLocation.Problem.noSuchBeat("x", known: (1...40).map { "b\($0)" }).description
        #expect(many.contains("b1, b2") && many.contains("and 28 more") && !many.contains("b40"), "\(many)")
    }
}
