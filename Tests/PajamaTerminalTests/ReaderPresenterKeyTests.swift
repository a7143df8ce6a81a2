import PajamaImage
import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// Every key of the README's table, in the states where it matters, through the presenter alone.
@MainActor @Suite struct ReaderPresenterKeyTests {
    @Test func tapKeysAdvanceOnATextPage() {
        for key in [Key.character(" "), .enter, .right, .character("l")] {
            var h = PresenterHarness()
            h.show(Fixture.textPage)
            #expect(h.press(key) == [.move(.advance)], "\(key)")
        }
    }

    @Test func backKeysGoBackOnTextChoiceAndFinishedPages() {
        for state in [Fixture.textPage, Fixture.choicePage, Fixture.finished] {
            for key in [Key.left, .character("h"), .backspace] {
                var h = PresenterHarness()
                h.show(state)
                #expect(h.press(key) == [.move(.back)], "\(key) on \(state)")
            }
        }
    }

    @Test func digitsTakeTheirChoiceAndNothingBeyondTheChoices() {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        #expect(h.type("1") == [.move(.choose(0))])
        #expect(h.type("3") == [.move(.choose(2))])
        #expect(h.type("4") == [])
        #expect(h.type("9") == [])
        // On a text page a digit takes nothing.
        h.show(Fixture.textPage)
        #expect(h.type("1") == [])
    }

    @Test func arrowsMoveTheSelectionAndEnterTakesIt() {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        #expect(h.text().contains("› 1. Left by the river"))
        #expect(h.press(.down) == [])
        #expect(h.text().contains("› 2. Right up the hill"))
        #expect(h.press(.enter) == [.move(.choose(1))])
        // ↑ from the first choice wraps to the last; j and k do the same as ↓ and ↑.
        h.show(.page(Fixture.page(Fixture.textBeat)))
        h.show(Fixture.choicePage)
        #expect(h.text().contains("› 2. Right"), "back on the page, the choice taken is selected again (issue 35)")
        h.press(.up, .up)
        #expect(h.text().contains("› 3. Back to bed"))
        h.type("j")
        #expect(h.text().contains("› 1. Left"))
        h.type("k")
        #expect(h.press(.enter) == [.move(.choose(2))])
    }

    @Test func restartAsksFirstAndOnlyYesRestarts() {
        for state in [Fixture.textPage, Fixture.choicePage, Fixture.finished] {
            var h = PresenterHarness()
            h.show(state)
            #expect(h.type("r") == [])
            #expect(h.text().contains("Restart from the beginning?"))
            #expect(h.type("y") == [.restart])
            #expect(!h.text().contains("Restart from the beginning?"))
        }
        for cancel in [Key.character("n"), .character("q"), .escape, .character(" ")] {
            var h = PresenterHarness()
            h.show(Fixture.textPage)
            h.type("r")
            #expect(h.press(cancel) == [], "\(cancel) cancels the prompt and does nothing else")
            #expect(!h.text().contains("Restart from the beginning?"))
        }
    }

    @Test func soundKeysChangeTheVolumeInStepsOfTen() {
        var h = PresenterHarness(sound: SoundStatus(state: .sampleCache, volume: 75))
        h.show(Fixture.textPage)
        #expect(h.text().contains("sound: on 75%"))
        #expect(h.type("+") == [.setVolume(80)])
        #expect(h.type("=") == [.setVolume(80)])
        #expect(h.type("-") == [.setVolume(70)])
        #expect(h.type("m") == [.toggleMute])
        h.handle(.sound(SoundStatus(state: .sampleCache, volume: 100)))
        #expect(h.type("+") == [.setVolume(100)])
        h.handle(.sound(SoundStatus(state: .sampleCache, volume: 0)))
        #expect(h.type("-") == [.setVolume(0)])
        h.handle(.sound(SoundStatus(state: .muted, volume: 40, isMuted: true)))
        #expect(h.text().contains("sound: muted"))
        #expect(h.type("m") == [.toggleMute])
        h.handle(.sound(SoundStatus(state: .stream, volume: 40)))
        #expect(h.text().contains("sound: on (stream) 40%"))
    }

    @Test func soundKeysWithoutSoundSayWhy() {
        let cases: [(SoundStatus, String, String)] = [
            (.disabled, "sound is off (--no-sound)", "sound: off"),
            (SoundStatus(state: .off(reason: "refused")), "sound is off (no server)", "sound: off (no server)"),
        ]
        for (status, notice, line) in cases {
            for key in ["m", "+", "-"] {
                var h = PresenterHarness(sound: status)
                h.show(Fixture.textPage)
                #expect(h.type(key) == [])
                let text = h.text()
                #expect(text.contains(notice) && text.contains(line), "\(key) with \(status)")
            }
        }
    }

    @Test func themeKeyAsksForTheNextThemeAndSaysWhichOneCame() {
        var h = PresenterHarness(themes: ["default", "paper", "night"])
        h.show(Fixture.textPage)
        #expect(h.type("t") == [.applyTheme("paper")])
        h.handle(.themeApplied(name: "paper", look: PictureLook(mode: .none)))
        #expect(h.text().contains("theme: paper"))
        #expect(h.type("t") == [.applyTheme("night")])
        h.handle(.themeApplied(name: "night", look: PictureLook(mode: .none)))
        #expect(h.type("t") == [.applyTheme("default")], "the list wraps round")
        var none = PresenterHarness(themes: [])
        none.show(Fixture.textPage)
        #expect(none.type("t") == [])
    }

    @Test func helpOpensWithQuestionMarkAndAnyKeyClosesIt() {
        for key in [Key.character("q"), .escape, .character(" "), .character("1"), .click(x: 10, y: 10)] {
            var h = PresenterHarness()
            h.show(Fixture.choicePage)
            #expect(h.type("?") == [])
            #expect(h.text().contains("take that choice"))
            #expect(!h.presenter.quitsAtOnce(.character("q")), "q closes the help first")
            #expect(h.press(key) == [], "\(key) only closes the help")
            #expect(!h.text().contains("take that choice"))
        }
    }

    @Test func quitKeysQuitInEveryState() {
        for state in [Fixture.textPage, Fixture.choicePage, Fixture.finished, Fixture.failed, .starting,
                      .loading(StoryLocation(beatId: "intro", pageId: "one"), waitingFor: [])] {
            for key in [Key.character("q"), .escape] {
                var h = PresenterHarness()
                h.show(state)
                #expect(h.presenter.quitsAtOnce(key))
                #expect(h.press(key) == [.quit], "\(key) in \(state)")
            }
        }
    }

    @Test func aFailedLoadTakesRetrySkipBackAndQuitOnly() {
        var h = PresenterHarness()
        h.show(Fixture.failed)
        let text = h.text()
        #expect(text.contains("Could not load this page.") && text.contains("r retry"))
        #expect(h.type("r") == [.retry])
        #expect(h.type("s") == [.skip])
        #expect(h.press(.left) == [.move(.back)])
        #expect(h.press(.backspace) == [.move(.back)])
        #expect(h.type(" 1tm+?") == [], "no tap, choice, theme, sound or help on the error screen")
        #expect(h.press(.escape) == [.quit])
    }

    @Test func theLastPageTakesNoTapButBackRestartAndQuit() {
        var h = PresenterHarness()
        h.show(Fixture.finished)
        #expect(h.text().contains("The End"))
        #expect(h.press(.character(" "), .enter, .right) == [])
        #expect(h.press(.left) == [.move(.back)])
        #expect(h.type("q") == [.quit])
    }

    @Test func aNoticeShowsUntilTheNextKey() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.notice("progress was reset"))
        #expect(h.text().contains("progress was reset"))
        h.press(.down)
        #expect(!h.text().contains("progress was reset"))
    }

    @Test func theStatsPanelShowsItsLines() {
        var h = PresenterHarness(width: 100, height: 24)
        h.show(Fixture.textPage)
        h.handle(.stats(["beats cached 3", "hit rate 90%"]))
        let text = h.text()
        #expect(text.contains("beats cached 3") && text.contains("hit rate 90%"))
    }
}
