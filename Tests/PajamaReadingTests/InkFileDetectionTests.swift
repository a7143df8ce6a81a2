import Foundation
import PajamaFormats
import PajamaHTTP
import PajamaInkBridge
import PajamaModel
import PajamaTestSupport
import Testing

/// A compiled ink story known by its content, whatever its file is called: `story.json`, `main.json`,
/// Inky's web export `story.js` (`var storyContent = {...};`, often after a byte order mark), told apart from
/// a Pajama package's story.json; in a folder, as a file, and over HTTP (docs/ink.md, "Which files are ink").
@Suite struct InkFileDetectionTests {
    static let ink = InkStoryFixtures.externalWithFallback.trimmingCharacters(in: .whitespacesAndNewlines)
    static let bom = "\u{FEFF}"
    static var webExport: String { bom + "var storyContent = " + ink + ";\n" }

    func detects(_ text: String) -> Bool { InkFileFormat.json(in: Array(text.utf8)) != nil }

    @Test func inkIsKnownByATopLevelInkVersionKey() {
        #expect(detects(Self.ink))
        #expect(detects(Self.bom + Self.ink))
        #expect(detects(Self.webExport))
        #expect(detects("var storyContent={\"root\":[\"done\",null],\"inkVersion\":21}"))  // the key need not come first
        #expect(detects(" \n{ \"listDefs\": {}, \"inkVersion\" : 20, \"root\": [] }"))
        // A package's story.json, a nested or quoted "inkVersion", other JavaScript, nothing.
        #expect(!detects(#"{"id":"tale","title":"T","startBeatId":"start"}"#))
        #expect(!detects(#"{"meta":{"inkVersion":21},"root":[]}"#))
        #expect(!detects(#"{"note":"inkVersion","root":[]}"#))
        #expect(!detects(#"{"note":"say \"inkVersion\": here"}"#))
        #expect(!detects("(function(storyContent) { var story = new inkjs.Story(storyContent); })(storyContent);"))
        #expect(!detects("var storyContent = " + Self.ink + "; console.log(1)"))
        #expect(!detects(""))
        #expect(!detects("{"))
    }

    @Test func aWebExportLoadsAsTheStoryItHolds() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-web")
        defer { dir.remove() }
        try dir.write("ferry-cat/index.html", "<html><script src=\"ink.js\"></script><script src=\"story.js\"></script></html>")
        try dir.write("ferry-cat/ink.js", "(function(){ /* inkjs */ })();")
        try dir.write("ferry-cat/main.js", "(function(storyContent) { })(storyContent);")
        try dir.write("ferry-cat/story.js", Self.webExport)
        let found = try #require(InkStorySource.inkFile(at: dir.path + "/ferry-cat"))
        #expect(found.file == "story.js")
        let source = try #require(InkStorySource.local(dir.path + "/ferry-cat", seed: 1))
        let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
        #expect(manifest.id == "ferry-cat")  // a usual file name says nothing: the folder names the story
        #expect(manifest.title == "ferry-cat")
        let start = try await InkReadingTests.beat(source, "start")
        #expect(InkReadingTests.lines(start) == ["Hello, traveller!"])
        // The file itself opens too.
        #expect(InkStorySource.inkFile(at: dir.path + "/ferry-cat/story.js")?.file == "story.js")
        #expect(InkStorySource.inkFile(at: dir.path + "/ferry-cat/main.js") == nil)
    }

    @Test func anInkStoryJSONIsInkAndAPackagesIsNot() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-storyjson")
        defer { dir.remove() }
        try dir.write("ink/story.json", Self.ink)
        try dir.write("package/story.json", #"{"id":"tale","title":"T","startBeatId":"start"}"#)
        try dir.write("game/game.json", Self.bom + Self.ink)
        try dir.write("game/settings.json", #"{"volume":3}"#)
        try dir.write("two/a.json", Self.ink)
        try dir.write("two/b.json", Self.ink)
        try dir.write("named/tale.ink.json", Self.ink)
        try dir.write("named/story.js", Self.webExport)
        #expect(InkStorySource.inkFile(at: dir.path + "/ink")?.file == "story.json")
        #expect(InkStorySource.inkFile(at: dir.path + "/ink/story.json")?.file == "story.json")
        #expect(InkStorySource.inkFile(at: dir.path + "/package") == nil)
        #expect(InkStorySource.inkFile(at: dir.path + "/package/story.json") == nil)
        #expect(InkStorySource.inkFile(at: dir.path + "/game")?.file == "game.json")
        #expect(InkStorySource.inkFile(at: dir.path + "/two") == nil)  // which one? neither is chosen
        #expect(InkStorySource.inkFile(at: dir.path + "/named")?.file == "tale.ink.json")
    }

    @Test func aFolderURLOfAnInkStoryOpensLikeItsFolder() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-http")
        defer { dir.remove() }
        try dir.write("web/story.js", Self.webExport)
        try dir.write("json/story.json", Self.ink)
        try dir.write("json/main.json", Self.ink)
        try dir.write("package/story.json", #"{"id":"tale","title":"T","startBeatId":"start"}"#)
        let server = try await TestHTTPServer(root: dir.url)
        defer { server.stopSoon() }
        for (url, file) in [("/web/", "story.js"), ("/json/", "story.json"), ("/json", "story.json"), ("/json/main.json", "main.json"),
                            ("/web/story.js", "story.js")] {
            let source = await StorySources.open(server.baseURL + url, seed: 1)
            let ink = try #require(source as? InkStorySource, "\(url)")
            #expect(ink.file == file)
            let start = try await InkReadingTests.beat(ink, "start")
            #expect(InkReadingTests.lines(start) == ["Hello, traveller!"])
        }
        #expect(try #require(await StorySources.open(server.baseURL + "/web/", seed: 1) as? InkStorySource).name == "web")
        // The probe's bytes are the story's: the web export is fetched once.
        #expect(server.requestCount(for: "web/story.js") == 3)
        #expect(await StorySources.open(server.baseURL + "/package/") is HTTPStorySource)
        #expect(await StorySources.open(server.baseURL + "/package/story.json") is HTTPStorySource)
        #expect(await StorySources.open(server.baseURL + "/missing/") is HTTPStorySource)
    }

    /// Inky's web export writes the story's title into index.html's <title>: without a `# title:` tag the story
    /// is shown with it (library and title page), not with its folder's name; the id stays the folder's.
    @Test func aWebExportWithoutATitleTagTakesItsPagesTitle() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-page")
        defer { dir.remove() }
        try dir.write("ferry-cat/index.html", "<html><head><TITLE>\n  The Ferry &amp; the\tCat\u{1B}[31m </title></head></html>")
        try dir.write("ferry-cat/story.js", Self.webExport)
        for (name, title) in [("placeholder", "Untitled"), ("own-name", "story"), ("empty", " ")] {
            try dir.write("\(name)/index.html", "<title>\(title)</title>")
            try dir.write("\(name)/story.js", Self.webExport)
        }
        let source = try #require(InkStorySource.local(dir.path + "/ferry-cat", seed: 1))
        let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
        #expect(manifest.id == "ferry-cat")
        #expect(manifest.title == "The Ferry & the Cat [31m")
        #expect(try InkStorySource.manifest(folder: dir.path + "/ferry-cat", file: "story.js").title == "The Ferry & the Cat [31m")
        for name in ["placeholder", "own-name", "empty"] {  // titles that say nothing of the story
            #expect(try InkStorySource.manifest(folder: dir.path + "/\(name)", file: "story.js").title == name)
        }
        // Over HTTP the page is read beside the web export, and a missing page is no error.
        try dir.write("bare/story.js", Self.webExport)
        let server = try await TestHTTPServer(root: dir.url)
        defer { server.stopSoon() }
        let remote = try #require(await StorySources.open(server.baseURL + "/ferry-cat/", seed: 1) as? InkStorySource)
        #expect(try StoryDecoder.decodeManifest(try await remote.read("story.json")).title == "The Ferry & the Cat [31m")
        let bare = try #require(await StorySources.open(server.baseURL + "/bare/", seed: 1) as? InkStorySource)
        #expect(try StoryDecoder.decodeManifest(try await bare.read("story.json")).title == "bare")
    }
}
