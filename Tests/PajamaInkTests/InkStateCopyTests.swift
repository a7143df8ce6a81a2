import PajamaInk
import Testing

/// A state kept in memory (`copyState`/`restoreState`) goes on exactly as the same state saved as JSON and
/// loaded: the beat maker keeps the state at each choice point this way instead of a save and a load.
@Suite struct InkStateCopyTests {
    /// A random number (1 to 1000) and two sticky choices back to the top, for ever: the random sequence, the
    /// visit counts and the turn index all live in the state.
    static let twoWays = ##"""
    {"inkVersion":21,"root":[["ev",1,1000,"rnd","out","/ev","^ ","ev",{"CNT?":".^"},"out","/ev","\n","ev","str","^Left","/str","/ev",{"*":"0.c-0","flg":4},"ev","str","^Right","/str","/ev",{"*":"0.c-1","flg":4},{"c-0":[{"->":"0"},{"#f":5}],"c-1":[{"->":"0"},{"#f":5}],"#f":5}],"done",null],"listDefs":{}}
    """##

    /// The text of each step after choosing `steps` in turn.
    static func walk(_ story: Story, _ steps: [Int]) throws -> [String] {
        try steps.map { step in
            try story.chooseChoiceIndex(step)
            return try story.continueMaximally()
        }
    }

    @Test func aKeptStateGoesOnAsTheSameStateSavedAndLoaded() throws {
        let story = try Story(json: Self.twoWays, seed: 5)
        let first = try story.continueMaximally()
        #expect(first.hasSuffix(" 1\n"))
        // Reading the choices numbers them (ink numbers them as they are read), as the beat maker does.
        #expect(story.currentChoices.map(\.text) == ["Left", "Right"])
        let saved = story.saveStateJSON()
        let kept = story.copyState()
        // The live story moves on: the kept state does not.
        let away = try Self.walk(story, [0, 1, 1])
        #expect(away.count == 3)
        for _ in 0..<2 {
            story.restoreState(kept)
            #expect(story.saveStateJSON() == saved)
            #expect(story.currentChoices.map(\.text) == ["Left", "Right"])
            let reference = try Story(json: Self.twoWays, seed: 5)
            try reference.loadStateJSON(saved)
            let mine = try Self.walk(story, [1, 0, 1, 1])
            #expect(mine == (try Self.walk(reference, [1, 0, 1, 1])))
            #expect(story.saveStateJSON() == reference.saveStateJSON())
        }
    }

    @Test func theStoryGoesOnFromWhereItWasWhenItsStateIsKept() throws {
        let kept = try Story(json: Self.twoWays, seed: 9)
        let plain = try Story(json: Self.twoWays, seed: 9)
        #expect(try kept.continueMaximally() == (try plain.continueMaximally()))
        _ = kept.copyState()
        #expect(try Self.walk(kept, [0, 1, 0]) == (try Self.walk(plain, [0, 1, 0])))
        #expect(kept.saveStateJSON() == plain.saveStateJSON())
    }

    /// The state a kept one leads to by a choice, made later (a beat's start state, written only when read),
    /// is the state the story was in after taking that choice; the story's own state is left as it was.
    @Test func theStateAfterAChoiceOfAKeptStateIsTheOneTheChoiceGave() throws {
        let story = try Story(json: Self.twoWays, seed: 3)
        _ = try story.continueMaximally()
        let atChoice = story.copyState()
        try story.chooseChoiceIndex(1)
        let afterChoice = story.saveStateJSON()
        let onward = try story.continueMaximally()  // the story goes on past it
        let live = story.saveStateJSON()
        let made = try story.copyState(choosing: 1, after: atChoice)
        #expect(story.stateJSON(of: made) == afterChoice)
        #expect(story.saveStateJSON() == live)
        // And going on from the live state is as it would have been.
        let reference = try Story(json: Self.twoWays, seed: 3)
        try reference.loadStateJSON(live)
        #expect(try Self.walk(story, [0, 1]) == (try Self.walk(reference, [0, 1])))
        #expect(!onward.isEmpty)
        #expect(throws: StoryError.self) { try story.copyState(choosing: 5, after: atChoice) }
    }
}
