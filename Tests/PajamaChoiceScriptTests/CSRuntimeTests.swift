import PajamaChoiceScript
import PajamaJSON
import Testing

/// The interpreter's semantics, each checked against what ChoiceScript's own interpreter (scene.js) prints
/// for the same lines (docs/choicescript.md).
@Suite struct CSRuntimeTests {
    static func game(_ startup: String, _ others: [String: String] = [:]) -> CSGame {
        var texts = others
        texts["startup"] = startup
        return CSGame(sceneTexts: texts)
    }

    static func paragraphs(_ moment: CSMoment) -> [String] {
        moment.output.compactMap { if case .paragraph(let text) = $0 { text.trimmingCharacters(in: .whitespaces) } else { nil } }
    }

    static func options(_ moment: CSMoment) -> [CSOption] {
        if case .choice(let options) = moment.stop { return options }
        return []
    }

    @Test func typedAnswersWaitAreCheckedAndSetTheirVariable() throws {
        let runtime = CSRuntime(game: Self.game("""
            *create name ""
            *create n 0
            Your name?
            *input_text name
            Hello ${name}.
            *input_number n 2 5
            *if n > 4
              Many.
            *ending
            """), seed: 1)
        let asked = runtime.start()
        #expect(Self.paragraphs(asked) == ["Your name?"])
        #expect(asked.stop == .input(CSQuestion(variable: "name", kind: .text(allowsBlank: false))))
        #expect(throws: CSRuntime.AnswerProblem.refused("Please type something.")) { try runtime.answer("  ") }
        let number = try runtime.answer("  Ada ")
        #expect(Self.paragraphs(number) == ["Hello Ada."])
        #expect(number.stop == .input(CSQuestion(variable: "n", kind: .number(minimum: 2, maximum: 5, wholeNumbers: true))))
        #expect(throws: CSRuntime.AnswerProblem.refused("Please type in an integer number.")) { try runtime.answer("4.5") }
        #expect(throws: CSRuntime.AnswerProblem.refused("Please use a number less than or equal to 5")) { try runtime.answer("6") }
        let end = try runtime.answer("5")
        #expect(Self.paragraphs(end) == ["Many."])
        #expect(end.stop == .ending)
        #expect(runtime.state.stats["n"] == .number(5))
    }

    @Test func randomtestsAnswersAreDrawnAsItsRandDrawsThem() throws {
        // randomtest answers *input_number with a *rand of its bounds: the same seed gives the same numbers,
        // and answering spends one, so the *rand after it draws what randomtest's does.
        for seed in 0..<20 {
            let asked = CSRuntime(game: Self.game("*create n 0\n*create r 0\n*input_number n 1 100\n*rand r 1 100\n*ending\n"), seed: seed)
            _ = asked.start()
            let answer = try #require(asked.randomtestAnswer)
            _ = try asked.answer(answer)
            let drawn = CSRuntime(game: Self.game("*create n 0\n*create r 0\n*rand n 1 100\n*rand r 1 100\n*ending\n"), seed: seed)
            _ = drawn.start()
            #expect(asked.state.stats["n"] == drawn.state.stats["n"], "seed \(seed)")
            #expect(asked.state.stats["r"] == drawn.state.stats["r"], "seed \(seed)")
        }
        var blanks = 0
        for seed in 0..<40 {
            let runtime = CSRuntime(game: Self.game("*create t \"\"\n*input_text t allow_blank\n*ending\n"), seed: seed)
            _ = runtime.start()
            let answer = try #require(runtime.randomtestAnswer)
            #expect(answer == "" || answer == CSRuntime.randomtestText)
            if answer.isEmpty { blanks += 1 }
        }
        #expect(blanks > 0 && blanks < 40)
    }

    @Test func linesJoinIntoParagraphsAndBlankLinesEndThem() {
        let runtime = CSRuntime(game: Self.game("""
            The sea is
            loud—
            and cold.

            *line_break
            A new paragraph.
            *line_break
            Its second line.
            *ending
            """), seed: 1)
        let moment = runtime.start()
        #expect(Self.paragraphs(moment) == ["The sea is loud—and cold.", "A new paragraph. [n/]Its second line."])
        #expect(moment.stop == .ending)
    }

    @Test func variablesAreReplacedCapitalisedAndMultireplaced() {
        let runtime = CSRuntime(game: Self.game("""
            *create name "ada"
            *create strength 50
            *create brave true
            Hello ${name}, $!{name}, $!!{name}. @{brave Bold|Timid} @{(strength > 40) strong|weak} ${strength + 5}.
            *ending
            """), seed: 1)
        #expect(Self.paragraphs(runtime.start()) == ["Hello ada, Ada, ADA. Bold strong 55."])
    }

    @Test func fairmathAndArithmeticFollowChoiceScript() {
        let runtime = CSRuntime(game: Self.game("""
            *create a 50
            *create b 50
            *create c 3
            *create s "x"
            *set a %+ 20
            *set b %- 20
            *set c * 2
            *set c +1
            *set s & "y"
            ${a} ${b} ${c} ${s} ${round(2.5)} ${length("héllo")} ${7 modulo 3} ${"abc" # 2}
            *ending
            """), seed: 1)
        // 50 %+ 20 = floor(50 + 20 * 0.5) = 60; 50 %- 20 = ceil(50 - 20 * 0.5) = 40.
        #expect(Self.paragraphs(runtime.start()) == ["60 40 7 xy 3 5 1 b"])
    }

    @Test func choicesHideFalseIfsAndDimFalseSelectableIfs() throws {
        let runtime = CSRuntime(game: Self.game("""
            *create key false
            Which door?
            *choice
              #The red door.
                Red.
                *finish
              *if (key) #The locked door.
                Locked.
                *finish
              *selectable_if (key) #The iron door.
                Iron.
                *finish
              *if key
                #A secret door.
                  Secret.
                  *finish
              *else
                #The plain door.
                  Plain.
                  *finish
            """), seed: 1)
        let moment = runtime.start()
        #expect(Self.paragraphs(moment) == ["Which door?"])
        #expect(Self.options(moment) == [
            CSOption(text: "The red door.", selectable: true), CSOption(text: "The iron door.", selectable: false),
            CSOption(text: "The plain door.", selectable: true),
        ])
        #expect(throws: CSRuntime.ChoiceProblem.notSelectable) { try runtime.choose(1) }
        let after = try runtime.choose(2)
        #expect(Self.paragraphs(after) == ["Plain."])
        #expect(after.stop == .ending)
    }

    @Test func fakeChoiceFallsThroughAndReuseFlagsHideOrDisableTakenOptions() throws {
        let runtime = CSRuntime(game: Self.game("""
            *label top
            *fake_choice
              *hide_reuse #Look.
                You look.
              *disable_reuse #Listen.
                You listen.
              #Leave.
                *goto out
            Then you wait.
            *goto top
            *label out
            *ending
            """), seed: 1)
        #expect(Self.options(runtime.start()).map(\.text) == ["Look.", "Listen.", "Leave."])
        let looked = try runtime.choose(0)
        #expect(Self.paragraphs(looked) == ["You look. Then you wait."])
        #expect(Self.options(looked) == [CSOption(text: "Listen.", selectable: true), CSOption(text: "Leave.", selectable: true)])
        let listened = try runtime.choose(0)
        #expect(Self.options(listened) == [CSOption(text: "Listen.", selectable: false), CSOption(text: "Leave.", selectable: true)])
        #expect(try runtime.choose(1).stop == .ending)
    }

    @Test func fallingOutOfAChoiceIsAnErrorNamingSceneAndLine() throws {
        let runtime = CSRuntime(game: Self.game("""
            *choice
              #One.
                One.
              #Two.
                *ending
            """), seed: 1)
        _ = runtime.start()
        #expect(try runtime.choose(0).stop == .error("startup line 4: It is illegal to fall out of a *choice statement; you must *goto or *finish before the end of the indented block."))
    }

    @Test func gosubParamsReturnAndScenesFollowTheSceneList() throws {
        let runtime = CSRuntime(game: Self.game("""
            *scene_list
              startup
              second
            *create total 0
            *gosub add 2 3
            Total ${total}.
            *finish
            *label add
            *params a b
            *set total a + b
            *return
            """, ["second": """
                Second scene, ${total}.
                *gosub_scene helper greet "you"
                Back.
                *finish
                """, "helper": """
                *label greet
                *params who
                Hi ${who}.
                *return
                """]), seed: 1)
        let moment = runtime.start()
        // A paragraph goes on across scenes until a blank line, as ChoiceScript's does; *finish turns the page.
        #expect(Self.paragraphs(moment) == ["Total 5.", "Second scene, 5. Hi you. Back."])
        #expect(moment.output.contains(.pageBreak("Next Chapter")))
        #expect(moment.stop == .ending)
    }

    @Test func randIsSeededAndTheStateResumesTheSameReading() throws {
        let game = Self.game("""
            *create roll 0
            *label again
            *rand roll 1 1000
            Rolled ${roll}.
            *choice
              #Again.
                *goto again
              #Stop.
                *ending
            """)
        let first = CSRuntime(game: game, seed: 7)
        let second = CSRuntime(game: game, seed: 7)
        let other = CSRuntime(game: game, seed: 8)
        let moment = first.start()
        #expect(moment == second.start())
        #expect(Self.paragraphs(moment) != Self.paragraphs(other.start()))
        // The state saved as JSON and read back goes on as the reading itself does.
        let json = try JSONValueEncoder.sorted.encode(first.state)
        let resumed = CSRuntime(game: game, seed: 0)
        resumed.state = try JSONValueDecoder().decode(CSState.self, from: json)
        #expect(try resumed.choose(0) == first.choose(0))
    }

    @Test func bugStopsWithItsMessageAndScriptIsNeverRun() {
        let runtime = CSRuntime(game: Self.game("""
            *create x 1
            *script alert("hi")
            *bug x is ${x}
            """), seed: 1)
        let moment = runtime.start()
        #expect(moment.output.contains(.notice("(This game runs a script here; Pajama never runs a game's scripts.)")))
        #expect(moment.stop == .error("startup line 3: Bug: x is 1"))
    }

    @Test func aLinkPrintsItsWordsAndAFailingLineDropsItsUnfinishedParagraph() {
        let runtime = CSRuntime(game: Self.game("""
            Reach me on
            *link https://example.org/ my site
            or not.

            Half a paragraph
            *goto nowhere
            """), seed: 1)
        let moment = runtime.start()
        #expect(Self.paragraphs(moment) == ["Reach me on [url=https://example.org/]my site[/url] or not."])
        #expect(moment.stop == .error("startup line 6: bad label nowhere"))
    }

    @Test func unknownCommandsAndMissingLabelsStopSayingWhere() {
        #expect(CSRuntime(game: Self.game("Hi.\n*frobnicate\n"), seed: 1).start().stop == .error("startup line 2: Non-existent command 'frobnicate'"))
        #expect(CSRuntime(game: Self.game("*goto nowhere\n"), seed: 1).start().stop == .error("startup line 1: bad label nowhere"))
        #expect(CSRuntime(game: Self.game("*set x 2\n"), seed: 1).start().stop == .error("startup line 1: Non-existent variable 'x'"))
    }

    @Test func ifElseifElseTakeOneBranchWithImplicitControlFlow() {
        let runtime = CSRuntime(game: Self.game("""
            *create implicit_control_flow true
            *create n 2
            *if n = 1
              One.
            *elseif n = 2
              Two.
            *else
              Many.
            Done.
            *ending
            """), seed: 1)
        #expect(Self.paragraphs(runtime.start()) == ["Two. Done."])
    }

    @Test func multiGroupChoicesOfferEachCombination() throws {
        let runtime = CSRuntime(game: Self.game("""
            *choice colour toy
              #Red
                #Ball
                  Red ball.
                  *ending
                #Kite
                  Red kite.
                  *ending
              #Blue
                #Ball
                  Blue ball.
                  *ending
                #Kite
                  Blue kite.
                  *ending
            """), seed: 1)
        #expect(Self.options(runtime.start()).map(\.text) == ["Red / Ball", "Red / Kite", "Blue / Ball", "Blue / Kite"])
        #expect(Self.paragraphs(try runtime.choose(3)) == ["Blue kite."])
    }

    @Test func lintNamesProblemsBySceneAndLine() {
        let game = Self.game("""
            *create known 1
            *set known 2
            *set unknown 3
            *goto counting
            *choice
            Text.
            *goto_scene nowhere
            *frob
            *choice
              *selectable_if (known > 1) #Fine.
                *ending
            """)
        #expect(CSLint.check(game).map(\.description) == [
            "startup line 3: the variable \"unknown\" is used before any *create or *temp",
            "startup line 4: no label \"counting\"",
            "startup line 5: *choice has no options (expected indented #options after it)",
            "startup line 7: no scene \"nowhere\" (no nowhere.txt in the scenes folder)",
            "startup line 8: Non-existent command 'frob'",
        ])
    }
}
