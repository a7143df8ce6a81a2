import Foundation
import Testing

@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaStorage
@testable import PajamaTerminal

/// `s`: a bookmark on a page, a skip on an error screen, nothing harmful elsewhere.
@MainActor @Suite struct BookmarkKeyTests {
    @Test func sAsksForANameStartingEmptyWithTheFirstWordsAsItsHint() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.type("s") == [])
        #expect(h.text().contains("Save a bookmark named:") && h.text().contains("▏The lamp was lit."), "\(h.text())")
        #expect(h.press(.enter) == [.saveBookmark(name: "The lamp was lit.")])
        #expect(!h.text().contains("Save a bookmark"))
        // A name of one's own replaces the hint (typed keys are text: q does not quit); Esc cancels.
        h.type("s")
        #expect(h.type("q2 b") == [])
        #expect(h.text().contains("q2 b▏") && !h.text().contains("The lamp was lit.▏"), "\(h.text())")
        #expect(h.press(.enter) == [.saveBookmark(name: "q2 b")])
        h.type("s")
        #expect(h.press(.escape) == [] && !h.text().contains("Save a bookmark"))
        // Typed and taken back, the name is the hint again.
        h.show(Fixture.choicePage)
        h.type("s")
        h.type("ab")
        for _ in 0..<3 { h.press(.backspace) }
        #expect(h.press(.enter) == [.saveBookmark(name: "Which way?")])
    }

    @Test func theNameIsEditedWithTheUsualLineKeys() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.type("s")
        h.type("the lamp room")
        h.type("\u{17}")  // Ctrl-W: the word before the cursor
        #expect(h.text().contains("the lamp ▏"), "\(h.text())")
        h.type("tower")
        for _ in 0..<5 { h.press(.left) }
        h.type("old ")
        #expect(h.text().contains("the lamp old ▏tower"), "\(h.text())")
        h.press(.right)
        h.type("\u{15}")  // Ctrl-U: all before the cursor
        #expect(h.text().contains("▏ower"), "\(h.text())")
        h.type("T")
        #expect(h.press(.enter) == [.saveBookmark(name: "Tower")])
    }

    @Test func sSkipsOnAnErrorScreenAndDoesNothingElsewhere() {
        var h = PresenterHarness()
        h.show(Fixture.failed)
        #expect(h.type("s") == [.skip], "on an error screen s is skip (the view model skips only what can be), never a bookmark")
        for state in [ReaderState.starting, Fixture.finished] {
            h.show(state)
            #expect(h.type("s") == [])
            #expect(!h.text().contains("Save a bookmark"), "\(state)")
        }
    }
}

/// `o`: the bookmarks and autosaves, the newest named one selected; Enter opens one, Esc closes.
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
        h.handle(.bookmarks(Self.marks))
        let text = h.text()
        #expect(text.contains("Bookmarks ·") && text.contains("The lamp") && text.contains("The lamp was lit. · 2026-11-18"), "\(text)")
        #expect(text.contains("autosave 2026-11-24 12:00:00 UTC"))
        // It opens on the named bookmark, not on the newer autosave.
        #expect(h.press(.enter) == [.openBookmark(Self.marks[0])])
        #expect(!h.text().contains("Bookmarks ·"))
    }

    @Test func escapeClosesAndNoBookmarksSaysHowToMakeOne() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.bookmarks(Self.marks))
        #expect(h.press(.escape) == [])
        #expect(!h.text().contains("Bookmarks ·"))
        h.handle(.bookmarks([]))
        #expect(h.text().contains("no bookmarks yet (s saves one)"))
    }

    @Test func aFollowerCannotOpenABookmark() {
        var h = PresenterHarness(role: .follower(owner: "Ada"))
        h.show(Fixture.textPage)
        h.handle(.bookmarks(Self.marks))
        #expect(h.press(.enter) == [])
    }
}
