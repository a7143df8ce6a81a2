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
