import PajamaInk
import Testing

/// PajamaInk on hand-written compiled stories: text, glue, tags, choices, variables, lists, the random
/// generator the reference runtime uses, state save and load, and the errors a bad story gets.
@Suite struct InkRuntimeTests {
    @Test func glueJoinsLinesAndTextComesLineByLine() throws {
        let story = try Story(json: InkFixtures.glue, seed: 1)
        #expect(try story.continueStory() == "Hello world\n")
        #expect(try story.continueStory() == "Second line.\n")
        #expect(!story.canContinue)
        #expect(story.currentChoices.isEmpty)
    }

    /// The values bink (blade-ink) gives for the same story and seeds: RANDOM must match it exactly.
    @Test(arguments: [(42, "27\n31\n3\n"), (0, "8\n46\n-1\n"), (99, "45\n90\n-3\n")])
    func randomMatchesTheReferenceRuntime(seed: Int, expected: String) throws {
        let story = try Story(json: InkFixtures.random, seed: seed)
        #expect(try story.continueMaximally() == expected)
    }

    @Test func onceOnlyChoicesGoAndStickyOnesStayWithTheirTags() throws {
        let story = try Story(json: InkFixtures.choices, seed: 1)
        #expect(try story.continueStory() == "Top\n")
        #expect(story.currentTags == ["line tag"])
        #expect(story.currentChoices.map(\.text) == ["Once", "Again"])
        #expect(story.currentChoices[1].tags == ["choice tag"])
        try story.chooseChoiceIndex(0)
        #expect(try story.continueMaximally() == "Took once\nTop\n")
        #expect(story.currentChoices.map(\.text) == ["Again"])
        try story.chooseChoiceIndex(0)
        #expect(try story.continueMaximally() == "Took again\nTop\n")
        #expect(story.currentChoices.map(\.text) == ["Again"])
    }

    @Test func variablesFunctionsAndLists() throws {
        let story = try Story(json: InkFixtures.variablesAndLists, seed: 1)
        #expect(try story.continueMaximally() == "42\n84\nred, blue\n2\n")
        if case let .int(x)? = story.variable("x") { #expect(x == 42) } else { Issue.record("x is not an int") }
        try story.setVariable("x", .int(5))
        if case let .int(x)? = story.variable("x") { #expect(x == 5) } else { Issue.record("x is not an int") }
        #expect(throws: StoryError.self) { try story.setVariable("nope", .int(1)) }
    }

    @Test func aSavedStateContinuesIdenticallyInAFreshStory() throws {
        let story = try Story(json: InkFixtures.choices, seed: 3)
        _ = try story.continueMaximally()
        try story.chooseChoiceIndex(1)
        let saved = story.saveStateJSON()
        #expect(saved.contains("\"inkSaveVersion\":10"))
        let expected = try story.continueMaximally()
        let expectedChoices = story.currentChoices.map(\.text)

        let restored = try Story(json: InkFixtures.choices, seed: 99)
        try restored.loadStateJSON(saved)
        #expect(try restored.continueMaximally() == expected)
        #expect(restored.currentChoices.map(\.text) == expectedChoices)
        #expect(restored.storySeed == 3)
    }

    @Test func badStoriesAreRefusedWithTheReason() {
        #expect(throws: StoryLoadError.self) { try Story(json: "{\"inkVersion\":21,", seed: 1) }
        do {
            _ = try Story(json: #"{"inkVersion":22,"root":["done",null]}"#, seed: 1)
            Issue.record("a story from a newer ink loaded")
        } catch {
            #expect(error.message.contains("newer than the current version"))
        }
        do {
            _ = try Story(json: #"{"root":["done",null]}"#, seed: 1)
            Issue.record("a story without a version loaded")
        } catch {
            #expect(error.message.contains("ink version number not found"))
        }
    }

    @Test func aRuntimeErrorGoesToTheHandlerAndEndsTheFlow() throws {
        // Diverts to a variable that holds 0 instead of a divert target.
        let json = #"""
        {"inkVersion":21,"root":[["ev",0,"/ev",{"temp=":"t"},{"->":"t","var":true},"done",null],"done",null],"listDefs":{}}
        """#
        let story = try Story(json: json, seed: 1)
        var errors: [String] = []
        story.onError = { message, kind in if kind == .error { errors.append(message) } }
        _ = try story.continueStory()
        #expect(errors.count == 1)
        #expect(errors.first?.contains("didn't contain a divert target, it was empty/null (the value 0).") == true)
        #expect(!story.canContinue)

        let unhandled = try Story(json: json, seed: 1)
        #expect(throws: StoryError.self) { try unhandled.continueStory() }
    }

    /// Stories that never finish a line end with an error instead of hanging or exhausting memory (the
    /// reference runtime hangs on both; found by mutating the conformance stories).
    @Test(arguments: [
        (#"{"inkVersion":21,"root":[["<>",{"->":"0"},null],"done",null],"listDefs":{}}"#, "pieces of output"),
        (#"{"inkVersion":21,"root":[[{"f()":"f"},null],"done",{"f":[{"f()":"f"},null]}],"listDefs":{}}"#, "call stack"),
    ])
    func endlessStoriesStopWithAnError(json: String, reason: String) throws {
        let story = try Story(json: json, seed: 1)
        var errors: [String] = []
        story.onError = { message, kind in if kind == .error { errors.append(message) } }
        _ = try story.continueStory()
        #expect(errors.count == 1)
        #expect(errors.first?.contains(reason) == true)
        #expect(!story.canContinue)
    }
}
