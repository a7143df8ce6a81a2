import Testing
@testable import PajamaTwine

@Suite struct TweeTests {
    @Test func headersTagsAndStoryData() throws {
        let story = try Twee.parse("""
            :: StoryTitle
            The Lighthouse

            :: StoryData
            {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0FC", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

            :: Shore [dark  critical] {"position":"100,100","size":"100,100"}
            The sea is loud.
            [[Climb->Top]]

            :: Top
            \\:: not a header
            You see the light.


            """)
        #expect(story.title == "The Lighthouse")
        #expect(story.ifid == "D674C58C-DEFA-4F70-B7A2-27742230C0FC")
        #expect(story.format == "Harlowe")
        #expect(story.formatVersion == "3.3.8")
        #expect(story.start == "Shore")
        #expect(story.passages.map(\.name) == ["Shore", "Top"])
        #expect(story.passage(named: "Shore")?.tags == ["dark", "critical"])
        #expect(story.passage(named: "Shore")?.text == "The sea is loud.\n[[Climb->Top]]")
        #expect(story.passage(named: "Top")?.text == ":: not a header\nYou see the light.")
    }

    /// An escaped space is part of the name (`:: \\ bed` is " bed"), so a link to " bed" and one to "bed" go to
    /// two passages, as in Harlowe.
    @Test func anEscapedSpaceBelongsToTheName() throws {
        let story = try Twee.parse(":: start\n[[watch it in bed-> bed]]\n[[go to bed->bed]]\n\n:: \\ bed {\"position\":\"1,1\"}\nThe movie, in bed.\n\n:: bed\nYou go to bed.\n\n:: tail\\ \nEnd.")
        #expect(story.passages.map(\.name) == ["start", " bed", "bed", "tail "])
        let runtime = HarloweRuntime(story: story, seed: 1)
        #expect(runtime.start().links.map(\.action) == [.goto(" bed"), .goto("bed")])
        #expect(try runtime.choose(0).text == "The movie, in bed.")
    }

    @Test func escapesInNamesAndTheDefaultStart() throws {
        let story = try Twee.parse(":: A \\[strange\\] name\nHi\n\n:: Start\nGo")
        #expect(story.passages.first?.name == "A [strange] name")
        #expect(story.start == "Start")
        #expect(story.formatKind == .harlowe)
    }

    @Test func windowsLineEndings() throws {
        let story = try Twee.parse(":: StoryData\r\n{\"format\": \"SugarCube\", \"start\": \"B\"}\r\n\r\n:: A\r\none\r\n\r\n:: B\r\ntwo\r\n")
        #expect(story.passages.map(\.name) == ["A", "B"])
        #expect(story.format == "SugarCube")
        #expect(story.passage(named: "A")?.text == "one")
    }

    @Test func errorsSayWhat() {
        #expect(throws: TwineParseError.self) { try Twee.parse("no header here") }
        #expect(throws: TwineParseError("the start passage \"Nowhere\" named by StoryData does not exist")) {
            try Twee.parse(":: StoryData\n{\"start\": \"Nowhere\"}\n\n:: A\ntext")
        }
        #expect(throws: TwineParseError("line 1: the passage header's tags have no closing \"]\"")) { try Twee.parse(":: A [tag\ntext") }
    }
}

@Suite struct TwineHTMLTests {
    @Test func storyDataAndPassagesWithEntities() throws {
        let html = """
            <html><body><tw-storydata name="Caf&eacute; &amp; Co" startnode="2" creator="Twine" ifid="ABC" format="Harlowe" format-version="3.3.8" options="" hidden>
            <style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css"></style>
            <tw-passagedata pid="1" name="Other" tags="" position="0,0">It&#39;s &lt;b&gt;late&lt;/b&gt; &#x2014; go.</tw-passagedata>
            <tw-passagedata pid="2" name="Begin" tags="important intro" position="100,0">[[Go-&gt;Other]]</tw-passagedata>
            </tw-storydata></body></html>
            """
        let story = try TwineHTML.parse(html)
        #expect(story.title == "Café & Co")
        #expect(story.start == "Begin")
        #expect(story.format == "Harlowe")
        #expect(story.passage(named: "Other")?.text == "It's <b>late</b> — go.")
        #expect(story.passage(named: "Begin")?.text == "[[Go->Other]]")
        #expect(story.passage(named: "Begin")?.tags == ["important", "intro"])
        #expect(TwineFileKind.of(html) == .html)
    }

    @Test func aMissingStartNodeIsAnError() {
        #expect(throws: TwineParseError("the start node \"9\" of <tw-storydata> is no passage's pid")) {
            try TwineHTML.parse("<tw-storydata startnode=\"9\"><tw-passagedata pid=\"1\" name=\"A\">x</tw-passagedata></tw-storydata>")
        }
    }
}
