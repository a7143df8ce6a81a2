import Testing

@testable import PajamaTerminal

/// A tap on a page taller than the screen scrolls it, as `more` does (issue 35, item 1): the page turns only
/// once its end has been on screen, so no line is skipped at 40x12.
@MainActor @Suite struct TapScrollTests {
    @Test func tapsScrollALongPageToItsEndBeforeTheyTurnIt() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.longPage(lines: 30))
        var seen = Set<String>()
        var taps = 0
        while true {
            for row in h.text().split(separator: "\n") { seen.insert(row.filter { $0 != "▲" && $0 != "▼" }.trimmingCharacters(in: .whitespaces)) }
            let effects = h.press(.character(" "))
            if effects.contains(.move(.advance)) { break }
            #expect(effects.isEmpty)
            taps += 1
            guard taps < 30 else {
                Issue.record("the page never turned")
                return
            }
        }
        #expect(taps > 1)
        let missed = (1...30).map { "line \($0)" }.filter { !seen.contains($0) }
        #expect(missed.isEmpty, "lines never on screen: \(missed)")
    }

    @Test func aPageThatFitsTurnsAtTheFirstTap() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.longPage(lines: 3))
        #expect(h.press(.enter) == [.move(.advance)])
    }

    @Test func autoForwardScrollsALongPageBeforeItTurnsIt() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.longPage(lines: 30))
        h.press(.character("a"))
        h.now += .seconds(30)
        #expect(h.handle(.tick).isEmpty)  // not a move: a scroll
        #expect(h.text().contains("▲"), "auto-forward did not scroll:\n\(h.text())")
    }
}
