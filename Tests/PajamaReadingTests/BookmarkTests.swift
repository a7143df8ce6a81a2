import Foundation
import PajamaTestSupport
import Testing

@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaStorage

/// Bookmarks and autosaves: the store (atomic, the newest 10 autosaves, a broken file moved aside), a
/// bookmark of the page shown, an autosave before every choice, and opening one.
@MainActor @Suite struct BookmarkTests {
    static func mark(_ name: String, _ page: String = "p") -> Bookmark {
        Bookmark(name: name, location: StoryLocation(beatId: "left", pageId: page), history: [StoryLocation(beatId: "left", pageId: page)],
                 firstWords: "words", savedAt: Date(timeIntervalSince1970: 1_795_000_000))
    }

    @Test func bookmarksAreSavedByNameAndOnlyTheNewestTenAutosavesKept() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-bookmarks")
        defer { dir.remove() }
        let store = BookmarkStore(folder: dir.url)
        #expect(store.load(storyId: "s").file == BookmarkFile())
        #expect(store.save(Self.mark("one"), storyId: "s") == nil)
        #expect(store.save(Self.mark("one", "q"), storyId: "s") == nil)
        for i in 0..<12 { #expect(store.autosave(Self.mark("autosave \(i)"), storyId: "s") == nil) }
        let (file, warning) = store.load(storyId: "s")
        #expect(warning == nil)
        #expect(file.bookmarks == [Self.mark("one", "q")], "the same name replaces the bookmark")
        #expect(file.autosaves.map(\.name) == (2..<12).map { "autosave \($0)" })
        #expect(file.named("autosave 11")?.location.pageId == "p")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aBrokenBookmarksFileIsMovedAsideWithTheReason() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-bookmarks-bad")
        defer { dir.remove() }
        try Data("{\"bookmarks\": [".utf8).write(to: dir.url.appendingPathComponent("s.json"))
        let store = BookmarkStore(folder: dir.url)
        let (file, warning) = store.load(storyId: "s")
        #expect(file == BookmarkFile())
        let said = try #require(warning)
        #expect(said.contains("s.json") && said.contains("not valid JSON") && said.contains("corrupt-"), "\(said)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.contains { $0.hasPrefix("s.json.corrupt-") } && !names.contains("s.json"))
        // A new save starts a fresh file.
        #expect(store.save(Self.mark("one"), storyId: "s") == nil)
        #expect(store.load(storyId: "s").file.names == ["one"])
    }

    @Test func anAutosaveIsWrittenBeforeEveryChoiceAndABookmarkOpensWithItsHistory() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-autosave")
        defer { dir.remove() }
        let store = BookmarkStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil, bookmarks: store)
        await vm.start()
        await vm.changePage(.advance)
        vm.saveBookmark()  // on the text page: named by its first words
        await vm.changePage(.advance)
        await vm.changePage(.choose(0))
        await vm.close()  // waits for the writes
        let file = store.load(storyId: "s").file
        #expect(file.bookmarks.map(\.name) == ["a"])
        #expect(file.bookmarks.first?.history.map(\.pageId) == ["title", "text"])
        #expect(file.autosaves.count == 1 && file.autosaves.first?.location.pageId == "choose", "the autosave is of the choice page")
        #expect(file.autosaves.first?.name.hasPrefix("autosave ") == true)

        let reopened = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil, bookmarks: store)
        let autosave = try #require(file.autosaves.first)
        await reopened.start(bookmark: autosave)
        guard case .page(let page) = reopened.state else { Issue.record("\(reopened.state)"); return }
        #expect(page.location.pageId == "choose")
        await reopened.changePage(.back)
        guard case .page(let back) = reopened.state else { Issue.record("\(reopened.state)"); return }
        #expect(back.location.pageId == "text", "back follows the bookmark's history")
        await reopened.close()
    }

    @Test func theListHasABookmarkJustSavedAndOpeningOneFollowsItsHistory() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-bookmark-list")
        defer { dir.remove() }
        let store = BookmarkStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil, bookmarks: store)
        await vm.start()
        await vm.changePage(.advance)
        vm.saveBookmark(name: "here")
        let listed = await vm.bookmarks()
        #expect(listed.map(\.name) == ["here"], "read after the write handed over before it")
        await vm.changePage(.advance)
        await vm.changePage(.choose(1))
        await vm.open(listed[0])
        guard case .page(let page) = vm.state else { Issue.record("\(vm.state)"); return }
        #expect(page.location.pageId == "text")
        #expect(vm.history.locations.map(\.pageId) == ["title", "text"])
        await vm.close()
        #expect(await vm.bookmarks().isEmpty, "after close nothing is read, and nothing hangs")
    }

    @Test func noBookmarkIsSavedWhileNoPageIsShown() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-bookmark-none")
        defer { dir.remove() }
        let store = BookmarkStore(folder: dir.url)
        var (manifest, beats) = ReaderViewModelTests.story()
        beats.removeAll { $0.id == "start" }
        manifest.beats = nil
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil, bookmarks: store)
        await vm.start()  // the start beat is missing: an error screen
        vm.saveBookmark()
        await vm.close()
        #expect(store.load(storyId: "s").file == BookmarkFile())
    }

    @Test func firstWordsAreShortAndNameThePage() {
        #expect(Bookmark.firstWords(of: Page(id: "p", kind: .text(lines: ["The great beam swung out across the water, far"]))) == "The great beam swung out across…")
        #expect(Bookmark.firstWords(of: Page(id: "t", kind: .title(title: "The End", subtitle: nil))) == "The End")
    }
}
