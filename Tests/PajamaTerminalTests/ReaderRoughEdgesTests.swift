import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// The full-screen reader's rough edges of issue 35, item 11: the end screen at 40x12, auto-forward at the
/// end, the Loading screen's words, `r` failing again, the choice kept on a return to its page.
@MainActor @Suite struct ReaderRoughEdgesTests {
    @Test func theEndScreenFitsFortyByTwelveWithEveryWordWhole() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.finished)
        let text = h.text()
        for words in ["The End", "7 pages read", "2 choices made", "1 of 3 endings found", "r restart", "b backlog", "← back", "q quit"] {
            #expect(text.contains(words), "\"\(words)\" is cut at 40x12:\n\(text)")
        }
    }

    @Test func autoForwardIsOffOnTheEndScreenAndTheStatusLineSaysNothingOfIt() {
        var h = PresenterHarness(width: 80, height: 24)
        h.show(Fixture.textPage)
        h.press(.character("a"))
        #expect(h.statusLine().contains("auto-forward on"))
        h.show(Fixture.finished)
        #expect(!h.statusLine().contains("auto"), "\(h.statusLine())")
        #expect(h.presenter.autoForward == .off)
    }

    @Test func theLoadingScreenSaysTheNextPageNotABeatsId() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.show(.loading(StoryLocation(beatId: "sky_kite", pageId: ""), waitingFor: [.beat("sky_kite")]))
        h.handle(.loading(.started(.beat("sky_kite"))))
        h.advance(by: .milliseconds(200))
        let text = h.text()
        #expect(text.contains("Loading the next page…"), "\(text)")
        #expect(!text.contains("sky_kite"), "\(text)")
    }

    @Test func aRetryThatFailsAgainSaysSo() {
        var h = PresenterHarness()
        h.show(Fixture.failed)
        #expect(h.type("r") == [.retry])
        h.show(.loading(StoryLocation(beatId: "left", pageId: ""), waitingFor: [.beat("left")]))
        h.show(Fixture.failed)
        #expect(h.statusLine().contains("tried again: it failed again"), "\(h.statusLine())")
        h.type("r")
        h.show(Fixture.failed)
        #expect(h.statusLine().contains("tried again 2 times"), "\(h.statusLine())")
    }

    @Test func backToAChoicePageKeepsTheChoiceHighlightedOrTaken() {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        h.press(.down, .down)
        #expect(h.text().contains("› 3. Back to bed"))
        h.show(Fixture.textPage)
        h.show(Fixture.choicePage)
        #expect(h.text().contains("› 3. Back to bed"), "\(h.text())")
        // The one taken, by number, is the one highlighted on the way back.
        #expect(h.press(.character("2")) == [.move(.choose(1))])
        h.show(Fixture.textPage)
        h.show(Fixture.choicePage)
        #expect(h.text().contains("› 2. Right up the hill"), "\(h.text())")
    }
}
