import Foundation
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// The backlog's pages: what each said as far as it was read, the choice taken, the saved history's pages,
/// the limit, and going back to one.
@MainActor @Suite struct BacklogTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func theBacklogHoldsEachPagesTextAndTheChoiceTaken() async throws {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        await vm.changePage(.advance)  // text, line a
        await vm.changePage(.advance)  // line b
        await vm.changePage(.advance)  // line c
        await vm.changePage(.advance)  // choice
        await vm.changePage(.choose(1))
        let backlog = await vm.backlog()
        #expect(backlog.map(\.location.pageId) == ["title", "text", "choose", "p"])
        #expect(backlog[0].lines == ["T"])
        #expect(backlog[1].lines == ["a", "b", "c"])
        #expect(backlog[2].lines == ["?"] && backlog[2].choice == "R")
        #expect(backlog[3].choice == nil)
        await vm.close()
    }

    @Test func aTextPageShowsOnlyTheLinesRead() async throws {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        #expect(await vm.backlog().last?.lines == ["a", "b"])
        await vm.close()
    }

    @Test func theSavedHistorysPagesAreReadBackWithTheirChoice() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-backlog")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story()
        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        for _ in 0..<4 { await first.changePage(.advance) }
        await first.changePage(.choose(0))
        await first.close()

        // A new session: no beat is kept with the restored history; they are read through the content.
        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start()
        let backlog = await second.backlog()
        #expect(backlog.map(\.location.pageId) == ["title", "text", "choose", "p"])
        #expect(backlog[1].lines == ["a", "b", "c"])
        #expect(backlog[2].choice == "L", "the next page's beat tells which choice was taken")
        await second.close()
    }

    @Test func theBacklogKeepsTheNewestPagesUpToItsLimit() async throws {
        let beat = Beat(id: "long", pages: (0..<300).map { Page(id: "p\($0)", kind: .text(lines: ["page \($0)"])) })
        let manifest = StoryManifest(id: "l", title: "L", startBeatId: "long")
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: [beat]), sound: nil, progress: nil)
        await vm.start()
        for _ in 0..<299 { await vm.changePage(.advance) }
        let backlog = await vm.backlog()
        #expect(backlog.count == ReaderViewModel.backlogLimit)
        #expect(backlog.first?.lines == ["page 50"] && backlog.last?.lines == ["page 299"])
    }

    @Test func goingBackToAnEntryIsABackMove() async throws {
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        await vm.changePage(.choose(0))
        let entries = await vm.backlog()
        await vm.goBack(toHistoryIndex: entries[1].historyIndex)
        #expect(page(vm)?.location.pageId == "text")
        #expect(vm.history.entries.count == 4, "the forward history stays, as after back")
        await vm.changePage(.back)
        #expect(page(vm)?.location.pageId == "title")
        // Forward of the current page is not a back move: nothing happens.
        await vm.goBack(toHistoryIndex: 3)
        #expect(page(vm)?.location.pageId == "title")
        await vm.close()
    }
}
