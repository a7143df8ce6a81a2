import PajamaInk
import Testing

/// The game-facing API on conformance stories, as the inkjs specs drive them: flows, external functions,
/// variable observers. (Needs the corpus, like InkConformanceTests.)
@Suite(.enabled(
    if: InkCorpus.directory != nil,
    "ink conformance corpus not found: put it at ../shared/ink-conformance beside the project or set INK_CONFORMANCE_DIR"
))
struct InkAPITests {
    @Test func twoFlowsKeepTheirOwnPlaceAndSurviveASave() throws {
        let text = try InkCorpus.text(of: "multiflow/multi_flow_basics.ink.json")
        let story = try Story(json: text, seed: 1)
        story.switchFlow("First")
        try story.choosePathString("knot1")
        #expect(try story.continueStory() == "knot 1 line 1\n")
        story.switchFlow("Second")
        try story.choosePathString("knot2")
        #expect(try story.continueStory() == "knot 2 line 1\n")
        story.switchFlow("First")
        #expect(try story.continueStory() == "knot 1 line 2\n")
        #expect(story.aliveFlowNames.sorted() == ["First", "Second"])

        let saved = story.saveStateJSON()
        let restored = try Story(json: text, seed: 1)
        try restored.loadStateJSON(saved)
        #expect(restored.currentFlowName == "First")
        restored.switchFlow("Second")
        #expect(try restored.continueStory() == "knot 2 line 2\n")
        // Removing the current flow goes back to the default flow, as in ink.
        try restored.removeFlow("Second")
        #expect(restored.currentFlowIsDefaultFlow)
        #expect(restored.aliveFlowNames == ["First"])
    }

    @Test func externalFunctionsGetTheirArgumentsAndReturnValues() throws {
        let story = try Story(json: InkCorpus.text(of: "bindings/external_binding.ink.json"), seed: 1)
        var messages: [String] = []
        try story.bindExternalFunction("message") { arguments in
            if case let .string(s)? = arguments.first { messages.append(s) }
            return nil
        }
        try story.bindExternalFunction("multiply") { arguments in
            guard arguments.count == 2, case let .float(x) = arguments[0], case let .int(y) = arguments[1] else {
                throw StoryError("multiply got \(arguments)")
            }
            return .float(x * Float(y))
        }
        try story.bindExternalFunction("times") { arguments in
            guard arguments.count == 2, case let .int(n) = arguments[0], case let .string(s) = arguments[1] else {
                throw StoryError("times got \(arguments)")
            }
            return .string(String(repeating: s, count: n))
        }
        #expect(try story.continueStory() == "15\n")
        #expect(messages == ["hello world"])
        #expect(try story.continueStory() == "knock knock knock\n")
    }

    @Test func anUnboundExternalWithoutFallbackIsAnError() throws {
        let story = try Story(json: InkCorpus.text(of: "bindings/external_binding.ink.json"), seed: 1)
        do {
            _ = try story.continueStory()
            Issue.record("an unbound EXTERNAL went unnoticed")
        } catch {
            #expect(error.message.contains("Missing function binding for externals: 'message', 'multiply', 'times'")
                || error.message.contains("Missing function binding for externals"))
        }
    }

    @Test func observersSeeChangesAtTheEndOfEachContinueButNotTheLookAhead() throws {
        let story = try Story(json: InkCorpus.text(of: "bindings/variable_observer.ink.json"), seed: 1)
        var seen: [Int] = []
        try story.observeVariable("testVar") { _, value in
            if case let .int(i) = value { seen.append(i) }
        }
        #expect(try story.continueStory() == "Hello world!\n")
        #expect(seen.isEmpty)
        _ = try story.continueMaximally()
        #expect(seen == [15])
        try story.chooseChoiceIndex(0)
        _ = try story.continueStory()
        #expect(seen == [15, 25])
    }
}
