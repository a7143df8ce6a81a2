import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// A choice page of 20 choices (issue 35, item 3) at 40x12: the list scrolls, ↑ ↓ reach every choice, and a
/// choice's number is typed digit by digit (`1` `2` takes 12; `1` then Enter takes 1), docs/reader.md.
@MainActor @Suite struct ManyChoicesKeyTests {
    static let beat = Beat(id: "menu", pages: [
        Page(id: "who", kind: .choice(prompt: "Who did it?", choices: (1...20).map { Choice(text: "Suspect \($0)", targetBeatId: "s\($0)") })),
    ])

    static func harness() -> PresenterHarness {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(.page(Fixture.page(beat)))
        return h
    }

    @Test func twoDigitsTypedInTheWindowTakeChoiceTwelve() {
        var h = Self.harness()
        #expect(h.press(.character("1")).isEmpty)  // 10 to 19 start so: it waits for the next digit
        #expect(h.text().contains("› 1. Suspect 1"), "\(h.text())")
        h.now += .milliseconds(400)
        #expect(h.press(.character("2")) == [.move(.choose(11))])
    }

    @Test func oneThenEnterTakesChoiceOneAndALateDigitStartsANewNumber() {
        var h = Self.harness()
        h.press(.character("1"))
        #expect(h.press(.enter) == [.move(.choose(0))])
        h.show(.page(Fixture.page(Self.beat)))
        h.press(.character("2"))  // 20 starts so
        h.now += ReaderPresenter.numberWindow
        #expect(h.press(.character("3")) == [.move(.choose(2))])  // too late for 23: a number of its own
    }

    @Test func aNumberNoLongerOneCanStartIsTakenAtOnce() {
        var h = Self.harness()
        #expect(h.press(.character("7")) == [.move(.choose(6))])
        h.show(.page(Fixture.page(Self.beat)))
        h.type("2")
        #expect(h.press(.character("0")) == [.move(.choose(19))])
        // Past the last: said, nothing taken.
        h.show(.page(Fixture.page(Self.beat)))
        h.type("2")
        #expect(h.press(.character("5")).isEmpty)
        #expect(h.statusLine().contains("no choice 25"), "\(h.statusLine())")
    }

    @Test func theListScrollsToEveryChoiceSelected() {
        var h = Self.harness()
        for number in 2...20 {
            h.press(.down)
            #expect(h.text().contains("› \(number). Suspect \(number)"), "choice \(number) out of sight:\n\(h.text())")
        }
        #expect(!h.text().contains("Who did it?"))
        // Typed, a choice out of sight is scrolled to as well.
        h.now += ReaderPresenter.numberWindow
        h.type("1")
        #expect(h.text().contains("› 1. Suspect 1"), "\(h.text())")
    }

    @Test func nineChoicesOrFewerTakeADigitAtOnceAsBefore() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.choicePage)
        #expect(h.press(.character("3")) == [.move(.choose(2))])
        h.show(Fixture.choicePage)
        #expect(h.press(.character("4")).isEmpty)
        #expect(h.statusLine().contains("no choice 4"), "\(h.statusLine())")
    }

    /// Issue 35 item 5: a digit on a page of text says where the choices are rather than doing nothing.
    @Test func aDigitOnATextPageSaysTheChoicesComeAfterIt() {
        var h = PresenterHarness(width: 60, height: 12)
        let beat = Beat(id: "b", pages: [Page(id: "t", kind: .text(lines: ["Rain."])), Self.beat.pages[0]])
        h.show(.page(Fixture.page(beat)))
        #expect(h.press(.character("1")).isEmpty)
        #expect(h.statusLine().contains("the choices come after this page"), "\(h.statusLine())")
        h.show(Fixture.textPage)
        h.press(.character("1"))
        #expect(h.statusLine().contains("no choices on this page"), "\(h.statusLine())")
    }
}
