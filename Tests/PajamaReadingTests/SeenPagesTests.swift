import Foundation
@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaStorage
import PajamaTestSupport
import Testing

/// Seen pages: remembered per story across sessions and restarts in the progress file (bounded; older
/// files load as before), and each page's standing (pages read, beats seen, seen before) as it is entered.
@MainActor @Suite struct SeenPagesTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func aPageIsRememberedOnceAndTheOldestAreForgottenPastTheLimit() {
        var seen = SeenPages()
        let firstTime = seen.insert(SeenPage(beat: "a", page: "1"))
        let again = seen.insert(SeenPage(beat: "a", page: "1"))
        let other = seen.insert(SeenPage(beat: "b", page: "1"))
        #expect(firstTime && !again && other, "the second time is seen already")
        #expect(seen.beatCount == 2 && seen.pages.count == 2)
        for i in 0..<SeenPages.limit { seen.insert(SeenPage(beat: "long", page: "p\(i)")) }
        #expect(seen.pages.count == SeenPages.limit)
        #expect(seen.beatCount == 1, "the beats whose pages were all forgotten no longer count")
        #expect(!seen.contains(StoryLocation(beatId: "a", pageId: "1")) && !seen.contains(StoryLocation(beatId: "b", pageId: "1")))
        #expect(seen.contains(StoryLocation(beatId: "long", pageId: "p0", lineIndex: 3)), "lines do not count")
        // A page seen again is the newest: it outlives pages seen after it the first time.
        seen.insert(SeenPage(beat: "long", page: "p0"))
        seen.insert(SeenPage(beat: "new", page: "1"))
        #expect(seen.contains(StoryLocation(beatId: "long", pageId: "p0")) && !seen.contains(StoryLocation(beatId: "long", pageId: "p1")))
        // A saved list with duplicates, or longer than the limit, loads bounded.
        let loaded = SeenPages([SeenPage(beat: "x", page: "1"), SeenPage(beat: "x", page: "1")] + seen.pages)
        #expect(loaded.pages.count == SeenPages.limit && loaded.contains(StoryLocation(beatId: "new", pageId: "1")))
    }

    @Test func pagesSeenAreMarkedAcrossSessionsAndRestartsAndCountBeats() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-seen")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story()

        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        #expect(page(first)?.standing == ReadingStanding(pagesRead: 1, beatsSeen: 1, beatsListed: 3, seenBefore: false))
        await first.changePage(.advance)  // the text page
        await first.changePage(.advance)  // its second line: the same page
        #expect(page(first)?.standing.seenBefore == false)
        await first.changePage(.back)
        #expect(page(first)?.standing == ReadingStanding(pagesRead: 3, beatsSeen: 1, beatsListed: 3, seenBefore: true))
        await first.close()
        #expect(store.load(storyId: "s").progress?.seenPages == [SeenPage(beat: "start", page: "text"), SeenPage(beat: "start", page: "title")])

        // Another session, restarted: the title and text pages were seen, the choice page and "left" were not.
        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start(restart: true)
        #expect(page(second)?.standing == ReadingStanding(pagesRead: 1, beatsSeen: 1, beatsListed: 3, seenBefore: true))
        for _ in 0..<4 { await second.changePage(.advance) }
        #expect(page(second)?.location.pageId == "choose" && page(second)?.standing.seenBefore == false)
        await second.changePage(.choose(0))
        #expect(page(second)?.standing == ReadingStanding(pagesRead: 4, beatsSeen: 2, beatsListed: 3, seenBefore: false))
        await second.close()
    }

    @Test func aProgressFileWithoutSeenPagesLoadsAsBefore() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-seen-old")
        defer { dir.remove() }
        let old = #"{"finished":false,"history":[{"beatId":"start","lineIndex":0,"pageId":"title"}],"location":{"beatId":"start","lineIndex":0,"pageId":"title"},"pagesRead":1}"#
        try Data(old.utf8).write(to: dir.url.appendingPathComponent("s.json"))
        let store = ProgressStore(folder: dir.url)
        #expect(store.load(storyId: "s").warning == nil && store.load(storyId: "s").progress?.seenPages == nil)
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start()
        #expect(page(vm)?.location.pageId == "title" && page(vm)?.standing.seenBefore == false)
        await vm.close()
    }

    @Test func skippingGoesThroughSeenPagesToAnUnseenPageOrAChoice() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-skip")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story()

        // Nothing seen but the title page: > stops on the text page, its first line shown.
        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        await first.changePage(.skipSeen)
        #expect(page(first)?.location == StoryLocation(beatId: "start", pageId: "text") && page(first)?.revealedLines == 1,
                "\(String(describing: page(first)))")
        await first.close()

        // The text page was seen: > from the title goes through it, whole, to the choice page, and stops there.
        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start(restart: true)
        await second.changePage(.skipSeen)
        #expect(page(second)?.location.pageId == "choose", "\(String(describing: page(second)))")
        #expect(second.history.locations.contains(StoryLocation(beatId: "start", pageId: "text", lineIndex: 2)), "\(second.history.locations)")
        await second.changePage(.skipSeen)
        #expect(page(second)?.location.pageId == "choose", "> does nothing on a choice page")
        await second.changePage(.back)
        #expect(page(second)?.location == StoryLocation(beatId: "start", pageId: "text", lineIndex: 2) && page(second)?.revealedLines == 3)
        await second.close()
    }
}
