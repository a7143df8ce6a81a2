import Foundation
import PajamaFormats
import PajamaHTTP
import PajamaInkBridge
import PajamaModel
import PajamaPaging
import PajamaTestSupport
import Testing

/// What Inky's and other web exports write, read as their players show it (issue 35 item 6; docs/ink.md,
/// "Which files are ink", "Inky's tags", "Markup"): a `story.js` that assigns the story to another name
/// (`window.storydata = {...}`), several `# IMAGE:` tags before one line, and Unity's rich-text tags.
@Suite struct InkyExportTests {
    static let ink = InkFileDetectionTests.ink

    func detects(_ text: String) -> Bool { InkFileFormat.json(in: Array(text.utf8)) != nil }

    @Test func anyAssignmentOfTheStoryIsAWebExport() {
        for prefix in ["window.storydata = ", "\u{FEFF}window.storydata=", "let storyContent = ", "const story = ", "storyContent =\n",
                       "var storyContent = ", "self.$ink_1.data = "] {
            #expect(detects(prefix + Self.ink + ";\n"), "\(prefix)")
            #expect(InkFileFormat.mayBeInk(head: Array((prefix + Self.ink).utf8.prefix(64))), "\(prefix)")
        }
        // The head may end inside the name.
        #expect(InkFileFormat.mayBeInk(head: Array("\u{FEFF}    window.story".utf8)))
        // Other JavaScript is not ink: a call, two statements, a comparison, a name that starts with a digit.
        #expect(!detects("window.storydata = " + Self.ink + "; start();"))
        #expect(!detects("window.storydata == " + Self.ink))
        #expect(!detects("load(" + Self.ink + ");"))
        #expect(!detects("var 1story = " + Self.ink))
        #expect(!detects("window.storydata = {\"root\":[]};"))  // no inkVersion
        #expect(!InkFileFormat.mayBeInk(head: Array("(function(storyContent) {".utf8)))
    }

    @Test func aWindowStorydataExportOpensWhereverStoryContentDoes() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-storydata")
        defer { dir.remove() }
        try dir.write("night-ferry/index.html", "<title>Night Ferry</title><script src=\"story.js\"></script>")
        try dir.write("night-ferry/ink.js", "(function(){ /* inkjs */ })();")
        try dir.write("night-ferry/story.js", "window.storydata = " + Self.ink + ";\n")
        // A folder (read, play, validate, install-story, the library), the file itself, and over HTTP.
        #expect(InkStorySource.inkFile(at: dir.path + "/night-ferry")?.file == "story.js")
        #expect(InkStorySource.inkFile(at: dir.path + "/night-ferry/story.js")?.file == "story.js")
        #expect(try InkStorySource.manifest(folder: dir.path + "/night-ferry", file: "story.js").title == "Night Ferry")
        let source = try #require(InkStorySource.local(dir.path + "/night-ferry", seed: 1))
        #expect(InkReadingTests.lines(try await InkReadingTests.beat(source, "start")) == ["Hello, traveller!"])
        let report = await StoryValidator.validate(source: source, probe: InkReadingTests.Probe())
        #expect(report.exitCode == 0, "\(report.findings)")
        let server = try await TestHTTPServer(root: dir.url)
        defer { server.stopSoon() }
        let remote = try #require(await StorySources.open(server.baseURL + "/night-ferry/", seed: 1) as? InkStorySource)
        #expect(InkReadingTests.lines(try await InkReadingTests.beat(remote, "start")) == ["Hello, traveller!"])
    }

    /// `# IMAGE: a` and `# IMAGE: b` before one line: Inky's player shows both, one under the other; the
    /// reader shows a before b, each (the last with the line), and the same after an ending's last line.
    static let pictures = ##"""
    {"inkVersion":21,"root":[["^Opening.","\n","#","^IMAGE: images/a.png","/#","#","^IMAGE: images/b.png","/#","^Two pictures above.","\n","ev","str","^Go","/str","/ev",{"*":"0.c-0","flg":20},{"c-0":[{"->":"next"},{"#f":5}]}],"done",{"next":["#","^IMAGE: images/c.png","/#","^The end.","\n","#","^IMAGE: images/d.png","/#","#","^IMAGE: images/e.png","/#","end",{"#f":1}]}],"listDefs":{}}
    """##

    @Test func everyPictureTaggedBeforeALineIsShown() async throws {
        let files = Dictionary(uniqueKeysWithValues: ["a", "b", "c", "d", "e"].map { ("images/\($0).png", "x") })
        let dir = try InkReadingTests.folder(Self.pictures, files: files)
        defer { dir.remove() }
        let source = InkReadingTests.source(dir)
        let start = try await InkReadingTests.beat(source, "start")
        let path = InkWebTagsTests.path
        #expect(start.pages.map(\.imageUrl) == [nil, nil, path("images/a.png"), path("images/b.png"), nil])
        #expect(start.pages[1].kind == .text(lines: ["Opening."]))
        #expect(start.pages[2].kind == .title(title: "", subtitle: nil))
        #expect(start.pages[3].kind == .text(lines: ["Two pictures above."]))
        let next = try await InkReadingTests.beat(source, try #require(start.pages.last?.choices.first).targetBeatId)
        #expect(next.pages.map(\.imageUrl) == [path("images/c.png"), path("images/d.png"), path("images/e.png")])
        #expect(next.pages[0].kind == .text(lines: ["The end."]))
    }

    @Test func unityRichTextIsStyledOrTakenOffWholeNeverHalf() {
        let end = PageMarkup.parse("<size=50>THE END</size>")
        #expect(end.text == "THE END")
        #expect(end.unknown.isEmpty)
        let red = PageMarkup.parse("A <color=#ff0000>red</color> and <color=\"blue\">blue</color> <#00ff00>green</color> word")
        #expect(red.text == "A red and blue green word")
        #expect(red.spans == [TextSpan(from: 2, to: 5, attributes: [], color: 0xFF0000), TextSpan(from: 10, to: 14, attributes: [], color: 0x0000FF),
                              TextSpan(from: 15, to: 20, attributes: [], color: 0x00FF00)])
        #expect(PageMarkup.parse("<align=center>Title</align>").alignment == .center)
        #expect(PageMarkup.parse("<align=right><b>x</b></align>").spans == [TextSpan(from: 0, to: 1, attributes: .bold)])
        #expect(PageMarkup.parse("<s>gone</s> <font=\"LiberationSans SDF\">here</font> <sprite=3> <voffset=1em>up</voffset> "
            + "<line-height=50%>x</line-height> <mark=#ffff0088>m</mark>").text == "gone here  up x m")
        #expect(PageMarkup.parse("<s>gone</s>").spans == [TextSpan(from: 0, to: 4, attributes: .dim)])
        // A tag written Unity's way that neither HTML nor Unity knows: shown whole, its closing tag too.
        #expect(PageMarkup.parse("<wave=2>Hello</wave> <b>you</b>").text == "<wave=2>Hello</wave> you")
        // Unknown HTML is still dropped whole and named for validate; a `<` that starts no tag is text.
        #expect(PageMarkup.parse("<blink>x</blink> 3 <size 5").text == "x 3 <size 5")
        #expect(PageMarkup.parse("a <size=50 b").text == "a <size=50 b")
    }
}
