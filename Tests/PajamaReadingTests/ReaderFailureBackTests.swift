import Foundation
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// Back from an error screen: to the page the failed move left (not the one before it), offered only
/// when there is somewhere to go.
@MainActor @Suite struct ReaderFailureBackTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    func failure(_ vm: ReaderViewModel) -> ReaderFailure? {
        if case .failed(let f) = vm.state { return f }
        return nil
    }

    /// The shared test story without its `left` beat.
    func storyWithoutLeft() -> FakeContent {
        var (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        beats.removeAll { $0.id == "left" }
        manifest.beats = ["start", "right"]
        return FakeContent(manifest: manifest, beats: beats)
    }

    @Test func backFromAMissingBeatShowsTheChoiceAgain() async throws {
        let vm = ReaderViewModel(content: storyWithoutLeft(), sound: nil, progress: nil)
        await vm.start()
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        #expect(page(vm)?.page.id == "choose")
        let before = vm.history
        await vm.changePage(.choose(0))
        let failed = try #require(failure(vm))
        #expect(failed.canGoBack && !failed.canSkip)
        await vm.changePage(.back)
        #expect(page(vm)?.page.id == "choose")
        #expect(vm.history == before)
        // Back again goes on through the history as usual.
        await vm.changePage(.back)
        #expect(page(vm)?.page.id == "text")
    }

    @Test func backFromAMissingPictureShowsThePageTheMoveLeft() async throws {
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let content = FakeContent(manifest: manifest, beats: beats)
        await content.setMissing(path("choice.png"), true)
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "text"))
        await vm.changePage(.advance)
        #expect(try #require(failure(vm)).canGoBack)
        await vm.changePage(.back)
        #expect(page(vm)?.page.id == "text")
    }

    @Test func aFailureOnTheFirstPageOffersNoBack() async throws {
        var (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        beats.removeAll { $0.id == "start" }
        manifest.beats = ["left", "right"]
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        #expect(try #require(failure(vm)).canGoBack == false)
        await vm.changePage(.back)
        #expect(failure(vm) != nil)
    }
}
