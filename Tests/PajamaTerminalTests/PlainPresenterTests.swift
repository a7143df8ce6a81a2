import PajamaModel
import PajamaReading
import PajamaStoryFormat
import Testing

@testable import PajamaTerminal

/// Plain mode's decisions, without I/O: what the reader's states print, the prompt, and lines typed while
/// work goes on answered in order once it is done.
@MainActor
struct PlainPresenterTests {
    /// A presenter whose start (the first work) reached `state`, its events printed.
    func started(at state: ReaderState, role: ReaderRole = .solo, echoes: Bool = false) -> (PlainPresenter, String) {
        var presenter = PlainPresenter(role: role, readAloud: .off, echoes: echoes)
        let shown = presenter.handle(.reader(.stateChanged(state))).text
        _ = presenter.handle(.workFinished(state))
        return (presenter, shown)
    }

    @Test func aPageIsPrintedAsLinesWithItsPictureInWordsThenThePrompt() {
        var beat = Fixture.textBeat
        beat.pages[0].imageUrl = try? AssetPath(validating: "assets/lighthouse-at-dusk.png")
        var (presenter, text) = started(at: .page(Fixture.page(beat, revealed: 2)))
        #expect(text == "\n[picture: lighthouse at dusk]\nThe lamp was lit.\nWind at the door.\n")
        #expect(presenter.takePrompt() == "> ")
        #expect(presenter.takePrompt() == nil)  // printed once
        // Enter asks for the next line; the line revealed is all that is printed of the page then.
        #expect(presenter.handle(.line("")).effects == [.move(.advance)])
        let next = presenter.handle(.reader(.stateChanged(.page(Fixture.page(beat, revealed: 3)))))
        #expect(next.text == "A knock.\n")
        beat.pages[0].imageAlt = "The lighthouse at dusk, its lamp lit"
        var (described, _) = (PlainPresenter(readAloud: .off), "")
        #expect(described.handle(.reader(.stateChanged(.page(Fixture.page(beat)))))
            .text.hasPrefix("\n[picture: The lighthouse at dusk, its lamp lit]\n"))
    }

    /// A sound's caption is printed when it plays: a page_enter sound's as its page opens, a tap sound's
    /// when a tap shows more of the page (issue 35 item 8); a sound without one prints nothing.
    @Test func soundCaptionsArePrintedWhenTheSoundsPlay() throws {
        var beat = Fixture.textBeat
        func effect(_ path: String, _ trigger: SoundTrigger, _ caption: String?) throws -> Tool {
            Tool(name: "sound_effect", soundEffect: SoundEffect(soundURL: try AssetPath(validating: path), trigger: trigger, caption: caption))
        }
        beat.pages[0].tools = [try effect("assets/gulls.ogg", .pageEnter, "gulls cry"), try effect("assets/knock.wav", .tap, "a knock at the door"),
                               try effect("assets/wind.ogg", .pageEnter, nil)]
        var (presenter, text) = started(at: .page(Fixture.page(beat, revealed: 2)))
        #expect(text == "\n[sound: gulls cry]\nThe lamp was lit.\nWind at the door.\n")
        _ = presenter.takePrompt()
        #expect(presenter.handle(.line("")).effects == [.move(.advance)])
        #expect(presenter.handle(.reader(.stateChanged(.page(Fixture.page(beat, revealed: 3))))).text == "[sound: a knock at the door]\nA knock.\n")
    }

    @Test func choicesAreANumberedListAndANumberTakesOne() {
        var (presenter, text) = started(at: Fixture.choicePage)
        #expect(text == "\nWhich way?\n  1. Left by the river\n  2. Right up the hill\n  3. Back to bed\n")
        #expect(presenter.handle(.line("4")).text == "No choice 4: type 1 to 3.\n")
        #expect(presenter.handle(.line("")).text == "Type the number of a choice, 1 to 3.\n")
        #expect(presenter.handle(.line(" 2 ")).effects == [.move(.choose(1))])
    }

    /// On a question page the line typed is the answer (checked first: a refused one says why and asks
    /// again), and a command there starts with ":".
    @Test func onAQuestionPageTheLineIsTheAnswerAndACommandStartsWithAColon() {
        let question = Question(kind: .number(minimum: 1, maximum: 10, wholeNumbers: true), label: "How many?", answerBeatPrefix: "a-0123456789abcdef")
        let beat = Beat(id: "ask", pages: [Page(id: "question", kind: .question(question))])
        var (presenter, text) = started(at: .page(Fixture.page(beat)))
        #expect(text == "\nHow many?\n  (type a whole number from 1 to 10 and press Enter)\n")
        let refused = presenter.handle(.line("q"))
        #expect(refused.effects.isEmpty)
        #expect(refused.text.hasPrefix("Please type a number from 1 to 10."), "\(refused.text)")
        #expect(presenter.handle(.line(" 7 ")).effects == [.move(.answer(" 7 "))])
        var (other, _) = started(at: .page(Fixture.page(beat)))
        #expect(other.handle(.line(":q")).effects == [.quit])
    }

    @Test func linesTypedDuringWorkAreAnsweredInOrderWhenItsChangesArePrinted() {
        var (presenter, _) = started(at: .page(Fixture.page(Fixture.textBeat, revealed: 1)), echoes: true)
        _ = presenter.takePrompt()
        #expect(presenter.handle(.line("")).effects == [.move(.advance)])
        // Typed while the move goes on: they wait.
        #expect(presenter.handle(.line("?")) == ("", []))
        #expect(presenter.handle(.endOfInput) == ("", []))
        let reached = ReaderState.page(Fixture.page(Fixture.textBeat, revealed: 2))
        // The work is done before its change reached the presenter: nothing is answered yet.
        #expect(presenter.handle(.workFinished(reached)) == ("", []))
        #expect(presenter.takePrompt() == nil)
        // Its change printed, the help is answered (after its prompt: the input is not a terminal), then the end quits.
        let after = presenter.handle(.reader(.stateChanged(reached)))
        #expect(after.text.hasPrefix("Wind at the door.\n> ?\nCommands"), "\(after.text)")
        #expect(after.effects == [.quit])
        #expect(presenter.isQuitting)
    }

    @Test func aFollowersMovesMoveNobody() {
        var (presenter, _) = started(at: Fixture.choicePage, role: .follower(owner: "Olive"))
        let answer = presenter.handle(.line("1"))
        #expect(answer.effects.isEmpty)
        #expect(answer.text == "(following Olive: the pages turn as they do)\n")
        #expect(presenter.handle(.sessionEnded).text.contains("Olive ended the session"))
        #expect(presenter.handle(.line("1")).effects == [.move(.choose(0))])
    }

    @Test func theEndSaysHowTheReadingWentAndWhatCanBeDone() {
        let (_, text) = started(at: Fixture.finished)
        #expect(text.contains("The End\n7 pages read, 2 choices made, 1 of 3 endings found\nr restart, b back, q quit.\n"), "\(text)")
    }

    @Test func commandsAreReadWhateverTheirCaseAndSpaces() {
        #expect(PlainCommand(line: "") == .next)
        #expect(PlainCommand(line: " Q ") == .quit)
        #expect(PlainCommand(line: "12") == .choose(12))
        #expect(PlainCommand(line: "xyz") == .unknown("xyz"))
    }
}

/// Read aloud on demand: `v` turning it on says the page on screen; `V` says the current line, on or off.
@MainActor
struct ReadAloudOnDemandKeyTests {
    @Test func vTurningReadAloudOnSaysThePage() {
        var h = PresenterHarness(readAloud: .off)
        h.show(Fixture.textPage)
        #expect(h.type("v") == [.setReadAloud(true), .speak("The lamp was lit.\nWind at the door.\nA knock.")])
        #expect(h.type("v") == [.setReadAloud(false)])
    }

    @Test func capitalVSaysTheCurrentLineOrTheSelectedChoice() {
        var h = PresenterHarness(readAloud: .off)
        h.show(.page(Fixture.page(Fixture.textBeat, revealed: 2)))
        #expect(h.type("V") == [.speak("Wind at the door.")])
        h.show(Fixture.choicePage)
        h.press(.down)
        #expect(h.type("V") == [.speak("2. Right up the hill")])
        var without = PresenterHarness(readAloud: .missing(soundOn: false))
        without.show(Fixture.textPage)
        #expect(without.type("V") == [])
        #expect(without.text().contains("read aloud needs sound"))
    }
}

/// `i` in plain mode: the story's status page (a ChoiceScript game's stats) at the page shown, as lines.
@MainActor
struct PlainStatusPageTests {
    @Test func iAsksForTheStatusPageAndPrintsItAsLines() {
        var presenter = PlainPresenter(readAloud: .off)
        let state = Fixture.choicePage
        _ = presenter.handle(.reader(.stateChanged(state)))
        _ = presenter.handle(.workFinished(state))
        _ = presenter.takePrompt()
        guard case .page(let page) = state else { return }
        #expect(presenter.handle(.line("i")).effects == [.showStatus(beatId: page.location.beatId)])
        let rows: [StatusPage.Row] = [.text("Ada of the shore."), .meter("Strength: 57%", fraction: 0.57), .opposed("Brutality: 70%", "Finesse: 30%", fraction: 0.7)]
        let shown = presenter.handle(.status(StatusPage(title: "Stats", rows: rows), state))
        #expect(shown.text == "Stats:\nAda of the shore.\nStrength: 57%\nBrutality: 70%, Finesse: 30%\n")
        #expect(presenter.takePrompt() == "> ")
        _ = presenter.handle(.line("i"))
        #expect(presenter.handle(.status(nil, state)).text == "This story has no status page.\n")
        #expect(PlainCommand.helpLines.contains { $0.hasPrefix("  i ") })
    }
}
