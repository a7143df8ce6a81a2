import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// JPEG, WebP and GIF pictures on the reader's screen (issue 24), in process on a 256-colour headless
/// terminal: each drawn in cells (no "picture unavailable"), in Pajama's own format and in an ink story, and
/// a truncated JPEG said to be unavailable. The pictures are the committed fixtures of Tests/Fixtures/pictures:
/// red, green and blue quadrants (and white), which the cells show in xterm's 256-colour palette (196, 46, 21).
/// `pajama validate` and `pajama play` giving the same answers: EndToEndTests.PictureFormatsEndToEndTests.
@MainActor @Suite struct PictureFormatsReadingTests {
    static let pictures = PackagePaths.root.appendingPathComponent("Tests/Fixtures/pictures")

    /// The pages: (id, line, picture file in the story, fixture it holds).
    static let pages: [(id: String, line: String, file: String, fixture: String)] = [
        ("j", "A JPEG page.", "assets/photo.jpg", "progressive.jpg"),
        ("w", "A WebP page.", "assets/photo.webp", "lossy.webp"),
        ("g", "A GIF page.", "assets/photo.gif", "plain.gif"),
        ("m", "A JPEG named PNG.", "assets/rotated.png", "orientation-6.jpg"),
    ]

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: pictures.appendingPathComponent(name)) }

    /// Whether the frame's cells show the quadrants: red, green and blue cells as a 256-colour terminal
    /// draws them, foreground or background.
    static func showsQuadrants(_ t: HeadlessReading) -> Bool { [196, 46, 21].allSatisfy(t.colourNumbers.contains) }

    @Test func theReaderShowsEveryFormatAndSaysWhyTheBrokenOneIsNot() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-formats")
        defer { home.remove() }
        // A story of one beat: a page for each picture, then a page whose picture is a truncated JPEG.
        try home.write("story/story.json", #"{"format":1,"id":"formats","title":"Formats","startBeatId":"a","beats":["a"]}"#)
        var pages = Self.pages.map { #"{"id":"\#($0.id)","type":"text","lines":["\#($0.line)"],"imageUrl":"\#($0.file)"}"# }
        pages.append(#"{"id":"b","type":"text","lines":["A broken page."],"imageUrl":"assets/broken.jpg"}"#)
        pages.append(#"{"id":"e","type":"text","lines":["The end."]}"#)
        try home.write("story/beats/a.json", #"{"id":"a","pages":["# + pages.joined(separator: ",") + "]}")
        for page in Self.pages { try home.write("story/" + page.file, try Self.fixture(page.fixture)) }
        let jpeg = try Self.fixture("baseline.jpg")
        try home.write("story/assets/broken.jpg", jpeg.prefix(jpeg.count / 2))
        let t = HeadlessReading.read(home.url.appendingPathComponent("story").path, home: home, width: 100, height: 40)
        for (index, page) in Self.pages.enumerated() {
            if index > 0 { t.terminal.type(" ") }
            try await t.waitUntil("\(page.line) with its picture") { screen in
                screen.contains(page.line) && !screen.contains("picture unavailable") && Self.showsQuadrants(t)
            }
        }
        try await t.press(.character(" "), thenWaitFor: "A broken page.")
        try await t.waitFor("picture unavailable")
        // The check tells a page without the quadrants from one with them.
        #expect(!Self.showsQuadrants(t), "\(t.colourNumbers.sorted())")
        #expect(await t.quit() == 0)
    }

    /// The bundled ink story with its picture as a JPEG: the reader shows it.
    @Test func anInkStoryShowsAJPEG() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-formats-ink")
        defer { home.remove() }
        let ferry = PackagePaths.stories.appendingPathComponent("ferry-cat")
        let ink = try String(contentsOf: ferry.appendingPathComponent("ferry-cat.ink.json"), encoding: .utf8)
        try home.write("story/tale.ink.json", ink.replacingOccurrences(of: "images/ferry.png", with: "images/ferry.jpg"))
        try home.write("story/images/ferry.jpg", try Self.fixture("baseline.jpg"))
        try home.write("story/sounds/horn.wav", try Data(contentsOf: ferry.appendingPathComponent("sounds/horn.wav")))
        let t = HeadlessReading.read(home.path + "/story/tale.ink.json", home: home, width: 100, height: 40)
        try await t.waitFor("The Pajama team")
        t.terminal.type(" ")
        try await t.waitUntil("the ferry page with its picture") { screen in
            screen.contains("Every morning the ferry") && !screen.contains("picture unavailable") && Self.showsQuadrants(t)
        }
        #expect(await t.quit() == 0)
    }
}
