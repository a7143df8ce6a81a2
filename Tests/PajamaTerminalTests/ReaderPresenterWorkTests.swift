import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// The work on the view model, one at a time (ReaderPresenter+Work.swift): keys that come while a move is under
/// way wait behind it, in order; quit never waits; back calls off a move that waits on a load. And a key that
/// only starts a move draws no frame of its own: the new page's frame is the key's one frame.
@MainActor @Suite struct ReaderPresenterWorkTests {
    @Test func keysDuringAMoveWaitBehindItInOrder() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.handle(.key(.character(" "))) == [.move(.advance)])
        #expect(h.handle(.key(.character(" "))) == [], "waits behind the move")
        #expect(h.handle(.key(.left)) == [], "back is not a way out unless the reader waits on a load")
        #expect(h.handle(.workFinished) == [.move(.advance)], "the first waiting key goes next; back waits again")
        #expect(h.handle(.workFinished) == [.move(.back)])
        #expect(h.handle(.workFinished) == [])
        #expect(h.handle(.key(.character(" "))) == [.move(.advance)], "nothing under way: at once")
    }

    @Test func quitNeverWaitsAndBackCallsOffAMoveThatWaitsOnALoad() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.handle(.key(.character(" "))) == [.move(.advance)])
        h.show(.loading(StoryLocation(beatId: "fork", pageId: ""), waitingFor: [.beat("fork")]))
        #expect(h.handle(.key(.left)) == [.cancelWork])
        // The cancelled move ends; back goes next, from the page it left.
        h.show(Fixture.textPage)
        #expect(h.handle(.workFinished) == [.move(.back)])
        #expect(h.handle(.key(.character("q"))) == [.quit], "quit while back is under way")
    }

    @Test func aReloadWaitsForTheWorkUnderWayAndTheTickDoesNotMoveMeanwhile() {
        var h = PresenterHarness()
        h.show(.page(Fixture.page(Fixture.textBeat)))
        h.press(.character("a"))
        #expect(h.handle(.key(.character("]"))) == [])
        #expect(h.handle(.key(.character(" "))) == [], "the key stops auto-forward")
        #expect(h.handle(.key(.character(" "))) == [.move(.advance)])
        #expect(h.handle(.reloadStory(beats: ["intro"])) == [])
        #expect(h.handle(.workFinished) == [.reload(beats: ["intro"])])
        #expect(h.handle(.workFinished) == [])
    }

    @Test func aKeyThatOnlyStartsAMoveDrawsNothingTillThePageComes() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        _ = h.frame()
        #expect(!h.presenter.needsRedraw)
        #expect(h.press(.character(" ")) == [.move(.advance)])
        #expect(!h.presenter.needsRedraw, "no frame of the page being left")
        h.show(.page(Fixture.page(Fixture.textBeat, 1)))
        #expect(h.presenter.needsRedraw)
        // A key that changes the screen itself draws at once: help, a hint, a notice cleared.
        _ = h.frame()
        h.press(.character("?"))
        #expect(h.presenter.needsRedraw)
        _ = h.frame()
        h.press(.escape)
        h.handle(.notice("saved"))
        _ = h.frame()
        #expect(h.press(.character(" ")) == [.move(.advance)])
        #expect(h.presenter.needsRedraw, "the notice goes with the key")
    }

    @Test func theNextPagesAreAskedForOnEachNewPageUntilTheyAreReady() {
        var h = PresenterHarness()
        let page = Fixture.page(Fixture.textBeat, revealed: 3)
        #expect(h.handle(.state(.page(page))).contains(.checkNextPages(page)))
        #expect(h.handle(.loading(.finished(.beat("fork"), tier: .source, duration: .zero))) == [.checkNextPages(page)])
        h.handle(.nextPagesReady(page.location, true))
        #expect(h.handle(.loading(.finished(.beat("fork"), tier: .source, duration: .zero))) == [], "ready: not asked again")
        #expect(!h.handle(.state(.page(page))).contains(.checkNextPages(page)))
    }

    @Test func readAloudSaysWhyItCannotOrTurnsOnAndOff() {
        var off = PresenterHarness()
        off.show(Fixture.textPage)
        #expect(off.press(.character("v")) == [])
        #expect(off.text().contains("read aloud needs sound"))
        var h = PresenterHarness()
        h.presenter.readAloud = .off
        h.show(Fixture.textPage)
        #expect(h.press(.character("v")) == [.setReadAloud(true), .speak("The lamp was lit.\nWind at the door.\nA knock.")])
        #expect(h.text().contains("read aloud: on"))
        #expect(h.press(.character("v")) == [.setReadAloud(false)])
        #expect(h.text().contains("read aloud: off"))
    }

    @Test func theFrameTallyCountsTheFramesOfEachKey() {
        var tally = FrameTally()
        tally.frame()  // before the first key: not counted
        tally.key()
        tally.frame()
        tally.key()
        tally.key()
        tally.frame()
        tally.frame()
        let closed = tally.closed
        #expect(closed.keys == 3 && closed.frames == 3)
        #expect(closed.keysWithOneFrame == 1 && closed.keysWithNoFrame == 1 && closed.keysWithMoreFrames == 1)
        #expect(tally.summary == "frames per key 1.0: 3 keys, 1 with none, 1 with one, 1 with more")
    }
}
