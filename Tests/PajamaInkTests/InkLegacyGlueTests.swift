import PajamaInk
import Testing

/// Stories compiled by ink 16 and 17 (published web games still ship them) load and join their text as the
/// runtime of their time did: left (`G<`) and right (`G>`) glue around inline logic absorb the newlines
/// inside it. The expected text is what ink 17's own runtime (inkjs 1.x, shipped with a game of the time)
/// prints for these stories.
@Suite struct InkLegacyGlueTests {
    /// `A {<newline>B<newline>} C` as inline logic, then a conditional whose branch starts with a newline
    /// and diverts back: ink 17 prints "A B C" and "yes D".
    static func inlineLogic(version: Int) -> String {
        ##"{"inkVersion":\##(version),"root":[["^A ",["G>","\n","^B","\n","G<",null],"^ C","\n",["G>","ev",1,"/ev",[{"->":".^.b","c":true},{"b":["\n","^yes",{"->":"0.5"},null]}],"nop","G<",null],"^ D","\n","end",null],"done",null],"listDefs":{}}"##
    }

    @Test(arguments: [16, 17])
    func leftAndRightGlueAbsorbTheNewlinesOfInlineLogic(version: Int) throws {
        let story = try Story(json: Self.inlineLogic(version: version), seed: 1)
        #expect(try story.continueStory() == "A B C\n")
        #expect(try story.continueStory() == "yes D\n")
        #expect(!story.canContinue)
    }

    @Test func aStateWithLegacyGlueSavesAndLoads() throws {
        // Glue waiting in the output (a right glue before the choice) is saved as ink 17 wrote it.
        let text = ##"{"inkVersion":17,"root":[["^Pick",["G>","ev","str","^One","/str","/ev",{"*":"0.c-0","flg":20},"G<",null],{"c-0":["^ done","\n","end",{"#f":5}]}],"done",null],"listDefs":{}}"##
        let story = try Story(json: text, seed: 1)
        _ = try story.continueMaximally()
        let saved = story.saveStateJSON()
        let again = try Story(json: text, seed: 1)
        try again.loadStateJSON(saved)
        #expect(again.saveStateJSON() == saved)
        #expect(again.currentChoices.map(\.text) == story.currentChoices.map(\.text))
    }

    @Test func inkFifteenIsStillTooOld() {
        #expect(throws: StoryLoadError.self) { try Story(json: Self.inlineLogic(version: 15), seed: 1) }
    }
}
