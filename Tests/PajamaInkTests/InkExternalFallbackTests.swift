import PajamaInk
import Testing

/// External functions (`EXTERNAL name()`) with and without an ink fallback, as the official runtimes'
/// `allowExternalFunctionFallbacks` treats them.
@Suite struct InkExternalFallbackTests {
    /// `EXTERNAL name()` with an ink function `name` that returns "traveller" (issue 24's reproduction).
    static let withFallback = ##"{"inkVersion":21,"root":[["^Hello, ","ev",{"x()":"name"},"out","/ev","^!","\n",["done",{"#n":"g-0"}],null],"done",{"name":["ev","str","^traveller","/str","/ev","~ret",{"#f":1}]}],"listDefs":{}}"##
    /// `EXTERNAL score()` with no ink function of that name.
    static let withoutFallback = ##"{"inkVersion":21,"root":[["^Your score: ","ev",{"x()":"score"},"out","/ev","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}"##

    @Test func theFallbackRunsWhenFallbacksAreAllowed() throws {
        let story = try Story(json: Self.withFallback, seed: 1)
        story.allowExternalFunctionFallbacks = true
        #expect(story.missingExternalFunctions.isEmpty)
        #expect(try story.continueMaximally() == "Hello, traveller!\n")
    }

    @Test func withoutFallbacksTheExternalIsMissing() throws {
        let story = try Story(json: Self.withFallback, seed: 1)
        #expect(story.missingExternalFunctions == ["name"])
        #expect(throws: StoryError.self) { try story.continueMaximally() }
    }

    @Test func anExternalWithoutAnInkFunctionIsMissingEvenWithFallbacks() throws {
        let story = try Story(json: Self.withoutFallback, seed: 1)
        story.allowExternalFunctionFallbacks = true
        #expect(story.missingExternalFunctions == ["score"])
        // A binding from the game fills it.
        try story.bindExternalFunction("score") { _ in .int(12) }
        #expect(story.missingExternalFunctions.isEmpty)
        #expect(try story.continueMaximally() == "Your score: 12\n")
    }
}
