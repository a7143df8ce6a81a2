import Foundation
import PajamaFormats
import PajamaHTTP
import PajamaModel
import PajamaTestSupport
import PajamaTwineBridge
import Testing

/// A Twine story by URL (docs/twine.md, "Which files are Twine"), on a real server on 127.0.0.1: the published
/// HTML's own URL and its folder's URL (a server cannot list a folder: `index.html`, `story.html`, `story.twee`
/// are tried once ink's names are missing), read once, with the pictures beside it; a folder holding neither
/// stays a package, whose read says what is wrong.
@Suite struct TwineURLTests {
    static let html = """
        <html><head><title>Mill</title></head><body>
        <tw-storydata name="The Web Mill" startnode="1" format="Harlowe" format-version="3.3.9" ifid="6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C34">
        <tw-passagedata pid="1" name="Mill">&lt;img src=&quot;images/mill.txt&quot;&gt;The mill turns.
        [[Sea]]</tw-passagedata><tw-passagedata pid="2" name="Sea">The sea.</tw-passagedata></tw-storydata></body></html>
        """

    @Test func aPublishedStoryByItsURLOrItsFoldersWithItsPicture() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-twine-http")
        defer { dir.remove() }
        try dir.write("mill/index.html", Self.html)
        try dir.write("mill/images/mill.txt", "~ MILL ~")
        try dir.write("twee/story.twee", ":: StoryTitle\nTwee Mill\n\n:: Start\nA twee mill.")
        try dir.write("page/index.html", "<html><body>Not a story.</body></html>")
        let server = try await TestHTTPServer(root: dir.url)
        defer { server.stopSoon() }
        for url in ["/mill/", "/mill", "/mill/index.html"] {
            let source = try #require(await StorySources.open(server.baseURL + url, seed: 1) as? TwineStorySource, "\(url)")
            #expect(source.files == ["index.html"])
            let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
            #expect(manifest.title == "The Web Mill" && manifest.id == "mill")
            let start = try #require(try await source.madeBeat("start"))
            let page = try #require(start.pages.first { $0.imageUrl != nil })
            #expect(page.imageUrl?.value == "images/mill.txt")
            #expect(try await source.read("images/mill.txt") == Array("~ MILL ~".utf8))
        }
        // The probe's bytes are the story's: each opening read index.html once.
        #expect(server.requestCount(for: "mill/index.html") == 3)
        let twee = try #require(await StorySources.open(server.baseURL + "/twee/", seed: 1) as? TwineStorySource)
        #expect(twee.files == ["story.twee"])
        #expect(try StoryDecoder.decodeManifest(try await twee.read("story.json")).title == "Twee Mill")
        // A web page that is no story, and a missing folder: packages (their story.json read fails, saying so).
        #expect(await StorySources.open(server.baseURL + "/page/") is HTTPStorySource)
        #expect(await StorySources.open(server.baseURL + "/missing/") is HTTPStorySource)
    }

    /// A HAL track listing `sea.mp3, sea.ogg` of a story read by URL, whose server has only the `.ogg`: the page
    /// names the `.mp3`, and reading it asks the server for it (a 404), then for the `.ogg`, as a browser does;
    /// an error other than a missing file (a 403) is not passed over.
    @Test func aSoundPlaysTheFirstOfItsSourcesTheServerHas() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-twine-http")
        defer { dir.remove() }
        try dir.write("shore/story.twee", """
            :: hal.tracks
            sea: sounds/sea.mp3, sounds/sea.ogg
            gull: sounds/gull.mp3, sounds/gull.ogg

            :: Start
            (track: 'sea', 'play')(track: 'gull', 'play')The shore.
            """)
        try dir.write("shore/sounds/sea.ogg", "sea-ogg")
        try dir.write("shore/sounds/gull.ogg", "gull-ogg")
        let server = try await TestHTTPServer(root: dir.url, options: .init(statuses: ["shore/sounds/gull.mp3": 403]))
        defer { server.stopSoon() }
        let source = try #require(await StorySources.open(server.baseURL + "/shore/", seed: 1) as? TwineStorySource)
        let start = try #require(try await source.madeBeat("start"))
        #expect(start.pages.flatMap { $0.soundEffects.map(\.soundURL.value) } == ["sounds/sea.mp3", "sounds/gull.mp3"])
        #expect(try await source.read("sounds/sea.mp3") == Array("sea-ogg".utf8))
        #expect(server.requestCount(for: "shore/sounds/sea.mp3") == 1 && server.requestCount(for: "shore/sounds/sea.ogg") == 1)
        await #expect(throws: StorySourceError.httpStatus(path: "sounds/gull.mp3", status: 403)) { try await source.read("sounds/gull.mp3") }
    }
}
