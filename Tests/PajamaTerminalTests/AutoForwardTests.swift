import PajamaImage
import Testing

@testable import PajamaReading
@testable import PajamaTerminal

/// Auto-forward (`a`) and skipping seen pages (`>`) in the presenter, on a virtual clock: the pause is
/// asked for as the presenter's deadline and turned into a move by the tick past it.
@MainActor @Suite struct AutoForwardTests {
    /// The text page with its first line ("The lamp was lit.", 17 characters) shown.
    static var firstLine: PageState { Fixture.page(Fixture.textBeat, revealed: 1) }

    @Test func thePauseGrowsWithTheTextAndThePace() {
        let short = Self.firstLine
        #expect(ReaderPresenter.autoForwardPause(for: short, pace: 2) == .milliseconds(1680))  // 1 s + 17 × 40 ms
        var longer = short
        longer.revealedLines = 3
        #expect(ReaderPresenter.autoForwardPause(for: longer, pace: 2) == .milliseconds(1320))  // "A knock." 8 characters
        #expect(ReaderPresenter.autoForwardPause(for: short, pace: 4) == .milliseconds(840), "twice as fast")
        #expect(ReaderPresenter.autoForwardPause(for: short, pace: 0) == .milliseconds(3360), "half as fast")
    }

    @Test func aTurnsTheLineOrPageOnceThePauseIsOverAndStopsAtAChoice() throws {
        var h = PresenterHarness()
        h.show(.page(Self.firstLine))
        #expect(h.presenter.deadline == nil)
        h.press(.character("a"))
        #expect(h.text().contains("auto-forward on"))
        #expect(h.statusLine().contains("auto"))
        let due = try #require(h.presenter.deadline)
        #expect(due == h.now + .milliseconds(1680))
        h.now = due - .milliseconds(1)
        #expect(h.handle(.tick).isEmpty, "not before the pause is over")
        h.now = due
        #expect(h.handle(.tick) == [.move(.advance)])
        #expect(h.handle(.tick).isEmpty && h.presenter.deadline == nil, "one move, then it waits for the page it asked for")
        // The next line shown starts the pause again, from when it is shown.
        h.now += .milliseconds(300)
        h.show(.page(Fixture.page(Fixture.textBeat, revealed: 2)))
        #expect(h.presenter.deadline == h.now + .milliseconds(1680))
        // A choice page is the reader's to take: no deadline while it is up.
        h.show(Fixture.choicePage)
        #expect(h.presenter.deadline == nil)
        #expect(h.statusLine().contains("auto"), "still on")
    }

    @Test func anyKeyStopsItWithoutDoingAnythingElseButTheBracketsChangeThePace() {
        var h = PresenterHarness()
        h.show(.page(Self.firstLine))
        h.press(.character("a"))
        h.press(.character("]"))
        #expect(h.text().contains("auto-forward pace 4 of 5"))
        #expect(h.presenter.deadline == h.now + ReaderPresenter.autoForwardPause(for: Self.firstLine, pace: 3))
        h.press(.character("["), .character("["), .character("["), .character("["), .character("["))
        #expect(h.presenter.autoForwardPace == 0, "the slowest pace is the floor")
        #expect(h.press(.character(" ")).isEmpty, "the key stops auto-forward and is not a tap")
        #expect(h.text().contains("auto-forward off") && h.presenter.deadline == nil)
        #expect(h.press(.character(" ")) == [.move(.advance)], "the next key is a key again")
        // `a` turns it off too, and a follower cannot turn it on.
        h.press(.character("a"))
        h.press(.character("a"))
        #expect(h.presenter.autoForward == .off && h.text().contains("auto-forward off"))
        var follower = PresenterHarness(role: .follower(owner: "Ana"))
        follower.show(.page(Self.firstLine))
        follower.press(.character("a"))
        #expect(follower.presenter.autoForward == .off && follower.text().contains("only Ana turns the pages"))
    }

    @Test func aKeyThatOpensAnOverlayStopsItAndQuitStillQuits() {
        var h = PresenterHarness()
        h.show(.page(Self.firstLine))
        h.press(.character("a"))
        h.press(.character("?"))  // stops it: any key
        #expect(h.presenter.autoForward == .off)
        h.press(.character("x"))  // closes the help
        h.press(.character("a"))
        #expect(h.press(.character("q")) == [.quit])
    }

    @Test func greaterThanSkipsSeenPagesButNotOnAChoicePage() {
        var h = PresenterHarness()
        h.show(.page(Self.firstLine))
        #expect(h.press(.character(">")) == [.move(.skipSeen)])
        h.show(Fixture.choicePage)
        #expect(h.press(.character(">")).isEmpty)
        var follower = PresenterHarness(role: .follower(owner: "Ana"))
        follower.show(.page(Self.firstLine))
        #expect(follower.press(.character(">")).isEmpty)
    }

    @Test func theHelpListsTheNewKeys() {
        var h = PresenterHarness(height: 30)
        h.show(.page(Self.firstLine))
        h.press(.character("?"))
        let text = h.text()
        #expect(text.contains("skip seen · auto-forward, pace"), "\(text)")
    }
}
