import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// JPEG, WebP and GIF pictures through the real binary (issue 24): `pajama play` and `pajama validate` give
/// the reader's answer for every picture, a broken one included, in Pajama's own format and in an ink story.
/// The reader showing each (and saying why the broken one is not): PajamaReaderTests.PictureFormatsReadingTests.
/// The pictures are the committed fixtures of Tests/Fixtures/pictures: red, green, blue and white quadrants.
@Suite(.serialized) struct PictureFormatsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    static let pictures = PackagePaths.root.appendingPathComponent("Tests/Fixtures/pictures")

    /// The pages: (id, line, picture file in the story, fixture it holds).
    static let pages: [(id: String, line: String, file: String, fixture: String)] = [
        ("j", "A JPEG page.", "assets/photo.jpg", "progressive.jpg"),
        ("w", "A WebP page.", "assets/photo.webp", "lossy.webp"),
        ("g", "A GIF page.", "assets/photo.gif", "plain.gif"),
        ("m", "A JPEG named PNG.", "assets/rotated.png", "orientation-6.jpg"),
    ]

    func fixture(_ name: String) throws -> Data { try Data(contentsOf: Self.pictures.appendingPathComponent(name)) }

    /// A story of one beat: a page for each picture, then a page whose picture is a truncated JPEG.
    func makeStory() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-formats")
        try dir.write("story.json", #"{"format":1,"id":"formats","title":"Formats","startBeatId":"a","beats":["a"]}"#)
        var pages = Self.pages.map { #"{"id":"\#($0.id)","type":"text","lines":["\#($0.line)"],"imageUrl":"\#($0.file)"}"# }
        pages.append(#"{"id":"b","type":"text","lines":["A broken page."],"imageUrl":"assets/broken.jpg"}"#)
        pages.append(#"{"id":"e","type":"text","lines":["The end."]}"#)
        try dir.write("beats/a.json", #"{"id":"a","pages":["# + pages.joined(separator: ",") + "]}")
        for page in Self.pages { try dir.write(page.file, try fixture(page.fixture)) }
        let jpeg = try fixture("baseline.jpg")
        try dir.write("assets/broken.jpg", jpeg.prefix(jpeg.count / 2))
        return dir
    }

    func run(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, arguments, environment: environment)
    }

    /// The reason every part gives for the truncated JPEG.
    static let brokenReason = "assets/broken.jpg could not be decoded. (the file ends before the picture does (truncated))"

    @Test func validateAndPlayGiveTheReadersAnswer() throws {
        let story = try makeStory()
        defer { story.remove() }
        let home = try TemporaryDirectory(prefix: "pajama-formats-home")
        defer { home.remove() }
        let validated = try run(["validate", story.path], home: home)
        #expect(validated.status == 1, "\(validated.stdout)")
        let errors = validated.stdout.split(separator: "\n").filter { $0.hasPrefix("error") }
        #expect(errors.count == 1 && errors[0].contains("assets/broken.jpg: not a usable picture: the file ends before the picture does (truncated)"),
                "\(validated.stdout)")
        let played = try run(["play", story.path], home: home)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("A GIF page.") && played.stdout.contains("The end."), "\(played.stdout)")
        let warnings = played.stderr.split(separator: "\n").filter { $0.contains("picture unavailable") }
        #expect(warnings == ["pajama: beat \"a\", page \"b\": picture unavailable: \(Self.brokenReason)"], "\(played.stderr)")
    }

    /// The bundled ink story with its picture as a JPEG: validate finds nothing and play warns of nothing
    /// (the reader shows it: PajamaReaderTests.PictureFormatsReadingTests.anInkStoryShowsAJPEG).
    @Test func anInkStorysJPEGValidatesAndPlaysClean() throws {
        let home = try TemporaryDirectory(prefix: "pajama-formats-ink")
        defer { home.remove() }
        let ferry = PackagePaths.stories.appendingPathComponent("ferry-cat")
        let ink = try String(contentsOf: ferry.appendingPathComponent("ferry-cat.ink.json"), encoding: .utf8)
        try home.write("story/tale.ink.json", ink.replacingOccurrences(of: "images/ferry.png", with: "images/ferry.jpg"))
        try home.write("story/images/ferry.jpg", try fixture("baseline.jpg"))
        try home.write("story/sounds/horn.wav", try Data(contentsOf: ferry.appendingPathComponent("sounds/horn.wav")))
        let file = home.path + "/story/tale.ink.json"
        let validated = try run(["validate", file], home: home)
        #expect(validated.status == 0 && !validated.stdout.contains("ferry.jpg"), "\(validated.stdout)")
        let played = try run(["play", file, "--choices", "1,1,1,1,1,1"], home: home)
        #expect(!played.stderr.contains("picture"), "\(played.stderr)")
    }
}
