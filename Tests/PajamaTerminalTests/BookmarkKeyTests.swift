import Foundation
import Testing

@testable import PajamaCore
@testable import PajamaTerminal

/// `s`: a bookmark on a page, a skip on an error screen, nothing harmful elsewhere.
@MainActor @Suite struct BookmarkKeyTests {
    @Test func sSavesABookmarkOnAPageAndSkipsOnAnErrorScreen() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.type("s") == [.saveBookmark])
        h.show(Fixture.choicePage)
        #expect(h.type("s") == [.saveBookmark])
        h.show(Fixture.failed)
        #expect(h.type("s") == [.skip], "on an error screen s is skip (the view model skips only what can be), never a bookmark")
        h.show(.starting)
        #expect(h.type("s") == [])
        h.show(Fixture.finished)
        #expect(h.type("s") == [], "the end screen is not a page to bookmark")
    }
}

/// `o`: the bookmarks and autosaves, newest selected; Enter opens one, Esc closes.
@MainActor @Suite struct BookmarkListTests {
    static let marks = [
        Bookmark(name: "The lamp", location: StoryLocation(beatId: "intro", pageId: "one"), history: [], firstWords: "The lamp was lit.",
                 savedAt: Date(timeIntervalSince1970: 1_795_000_000)),
        Bookmark(name: "autosave 2026-11-24 12:00:00 UTC", location: StoryLocation(beatId: "fork", pageId: "ask"), history: [],
                 firstWords: "Which way?", savedAt: Date(timeIntervalSince1970: 1_795_003_600)),
    ]

    @Test func oListsTheBookmarksAndEnterOpensTheChosenOne() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.type("o") == [.openBookmarks])
        h.send(.bookmarks(Self.marks))
        let text = h.text()
        #expect(text.contains("Bookmarks ·") && text.contains("The lamp") && text.contains("The lamp was lit. · 2026-11-18"), "\(text)")
        #expect(text.contains("autosave 2026-11-24 12:00:00 UTC"))
        h.press(.up)
        #expect(h.press(.enter) == [.openBookmark(Self.marks[0])])
        #expect(!h.text().contains("Bookmarks ·"))
    }

    @Test func escapeClosesAndNoBookmarksSaysHowToMakeOne() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.send(.bookmarks(Self.marks))
        #expect(h.press(.escape) == [])
        #expect(!h.text().contains("Bookmarks ·"))
        h.send(.bookmarks([]))
        #expect(h.text().contains("no bookmarks yet (s saves one)"))
    }

    @Test func aFollowerCannotOpenABookmark() {
        var h = PresenterHarness(role: .follower(owner: "Ada"))
        h.show(Fixture.textPage)
        h.send(.bookmarks(Self.marks))
        #expect(h.press(.enter) == [])
    }
}
