import PajamaInk
import Testing

/// ink works on Unicode scalars where Swift's String works on Characters (grapheme clusters): the `^` of a
/// text, the dot of a path or a list item, and string comparison must not join with, or see past, a combining
/// mark, a variation selector, a joiner or a skin-tone modifier that follows them.
@Suite struct InkScalarTests {
    /// A text that begins with `mark` (as a JSON escape) after its `^`, as emoji-heavy jam games write them.
    static func story(startingWith mark: String) -> String {
        ##"{"inkVersion":21,"root":[["^Hands up","\n","^\##(mark)✋ raised","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}"##
    }

    @Test(arguments: [
        (#"\uFE0F"#, "\u{FE0F}"),  // variation selector
        (#"\u0301"#, "\u{301}"),  // combining acute accent
        (#"\u200D"#, "\u{200D}"),  // zero-width joiner
        (#"\uD83C\uDFFD"#, "\u{1F3FD}"),  // skin-tone modifier (a surrogate pair in JSON)
    ])
    func aTextMayBeginWithAMarkThatJoinsTheCaret(escape: String, scalar: String) throws {
        let story = try Story(json: Self.story(startingWith: escape), seed: 1)
        let text = try story.continueMaximally()
        #expect(text.unicodeScalars.elementsEqual("Hands up\n\(scalar)✋ raised\n".unicodeScalars))
    }

    @Test func aPathNameMayBeginWithACombiningMark() {
        #expect(Path("knot.\u{301}stitch").components == [.name("knot"), .name("\u{301}stitch")])
        let relative = Path(".\u{301}x")
        #expect(relative.isRelative)
        #expect(relative.components == [.name("\u{301}x")])
    }

    @Test func aListItemNameMayBeginWithACombiningMark() throws {
        let json = ##"{"inkVersion":21,"root":[["ev",{"list":{"marks.\u0301acute":1}},"out","/ev","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{"marks":{"\u0301acute":1}}}"##
        let story = try Story(json: json, seed: 1)
        #expect(try story.continueMaximally().unicodeScalars.elementsEqual("\u{301}acute\n".unicodeScalars))
    }

    /// `"é" == "e" + U+0301` is false in ink (ordinal), and `"e" + U+0301 ? "e"` is true.
    @Test func stringsCompareByScalarsAsInk() throws {
        let json = ##"{"inkVersion":21,"root":[["ev","str","^\u00E9","/str","str","^e\u0301","/str","==","out","/ev","\n","ev","str","^e\u0301","/str","str","^e","/str","?","out","/ev","\n","ev","str","^e\u0301","/str","str","^e\u0301","/str","!=","out","/ev","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}"##
        let story = try Story(json: json, seed: 1)
        #expect(try story.continueMaximally() == "false\ntrue\nfalse\n")
    }
}
