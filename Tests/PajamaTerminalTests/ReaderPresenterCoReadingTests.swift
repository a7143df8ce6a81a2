import PajamaImage
import Testing

@testable import PajamaTerminal

/// The status line in a co-reading session: a follower sees whom it follows from the first frame.
@MainActor @Suite struct ReaderPresenterCoReadingTests {
    @Test func aFollowersStatusLineSaysWhomItFollowsBeforeAnyKey() {
        var h = PresenterHarness(role: .follower(owner: "Ana"))
        h.show(Fixture.textPage)
        #expect(h.statusLine().contains("following Ana"), "\(h.statusLine())")
        h.show(Fixture.choicePage)
        #expect(h.statusLine().contains("following Ana"), "\(h.statusLine())")
        #expect(h.press(.right) == [])
        #expect(h.text().contains("only Ana turns the pages"), "the hint after a key")
        h.handle(.sessionEnded)
        #expect(!h.statusLine().contains("following Ana"), "reading on alone: \(h.statusLine())")
    }
}
