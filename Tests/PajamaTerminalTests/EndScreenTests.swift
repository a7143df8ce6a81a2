import Testing

@testable import PajamaReading
@testable import PajamaTerminal

/// The end screen: the ending's page, "The End", how the reading went and the keys, at any size.
@MainActor @Suite struct EndScreenTests {
    @Test func theEndScreenShowsTheEndingsPageAndHowTheReadingWent() {
        var h = PresenterHarness()
        h.show(Fixture.finished)
        let text = h.text()
        #expect(text.contains("Morning came."), "the ending's page stays up:\n\(text)")
        #expect(text.contains("The End"))
        #expect(text.contains("7 pages read · 2 choices made · 1 of 3 endings found"), "\(text)")
        #expect(text.contains("r restart · b backlog · ← back · q quit"))
        #expect(text.contains("the end"), "the status line says where the reader is")
    }

    @Test func withoutATotalTheEndingsFoundAreCountedAlone() {
        var h = PresenterHarness()
        h.show(.finished(Fixture.page(Fixture.textBeat, 1, ending: true), EndSummary(pagesRead: 1, choicesMade: 0, endingsFound: 1)))
        #expect(h.text().contains("1 page read · 0 choices made · 1 ending found"))
    }

    @Test func theTotalAppearsWhenItIsCounted() {
        var h = PresenterHarness()
        let page = Fixture.page(Fixture.textBeat, 1, ending: true)
        h.show(.finished(page, EndSummary(pagesRead: 2, choicesMade: 1, endingsFound: 2)))
        #expect(h.text().contains("2 endings found"))
        h.show(.finished(page, EndSummary(pagesRead: 2, choicesMade: 1, endingsFound: 2, endingsTotal: 4)))
        #expect(h.text().contains("2 of 4 endings found"))
    }

    @Test func theEndScreenFitsEverySizeWithoutCrashing() {
        for (w, h) in [(20, 6), (24, 8), (40, 12), (80, 24), (200, 60)] {
            var harness = PresenterHarness(width: w, height: h)
            harness.show(Fixture.finished)
            let text = harness.text()
            if h >= 12 { #expect(text.contains("The End"), "at \(w)x\(h):\n\(text)") }
        }
    }
}
