import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// A corpus of malformed packages: each case takes a valid story and breaks one thing, then checks
/// that validation reports it at the right file, beat, page and field, with the right exit code.
@Suite struct MalformedCorpusTests {
    struct FakeProbe: AssetProbe {
        func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { bytes.starts(with: Array("RIFF".utf8)) ? nil : "not a sound" }
        func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { bytes.starts(with: Array("PNG".utf8)) ? nil : "not a picture" }
    }

    static let story = """
    {"format":1,"id":"corpus","title":"Corpus","startBeatId":"a","beats":["a","b","c"]}
    """
    static let beatA = """
    {"id":"a","pages":[
      {"id":"t","type":"title","title":"Hello","imageUrl":"assets/pic.png","imageAlt":"A wave"},
      {"id":"x","type":"text","lines":["one","two"],
       "tools":[{"name":"sound_effect","args":{"sound_url":"assets/s.wav","trigger":"tap"}}]},
      {"id":"c","type":"choice","prompt":"?","choices":[{"text":"B","targetBeatId":"b"},{"text":"C","targetBeatId":"c"}]}]}
    """
    static let beatB = #"{"id":"b","pages":[{"id":"e","type":"text","lines":["The end."]}]}"#
    static let beatC = #"{"id":"c","pages":[{"id":"e","type":"text","lines":["Another end."]}]}"#

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var files: [String: String?]
        var exit: Int32
        var file: String
        var beat: String?
        var page: String?
        var path: String
        var contains: String
        var description: String { name }
    }

    static func beatA(replacing old: String, with new: String) -> [String: String?] {
        ["beats/a.json": beatA.replacingOccurrences(of: old, with: new)]
    }

    static let cases: [Case] = [
        Case(name: "bad JSON", files: ["beats/b.json": "{\"id\":\"b\",,}"], exit: 1, file: "beats/b.json", beat: "b", page: nil, path: "", contains: "not valid JSON: line 1"),
        Case(name: "story.json bad JSON", files: ["story.json": "{"], exit: 1, file: "story.json", path: "", contains: "not valid JSON"),
        Case(name: "no story.json", files: ["story.json": nil], exit: 2, file: "story.json", path: "", contains: "cannot read the story: the folder has no story.json"),
        Case(name: "unknown format", files: ["story.json": story.replacingOccurrences(of: "\"format\":1", with: "\"format\":2")], exit: 1, file: "story.json", path: "format", contains: "unsupported format version 2"),
        Case(name: "format wrong type", files: ["story.json": story.replacingOccurrences(of: "\"format\":1", with: "\"format\":\"1\"")], exit: 1, file: "story.json", path: "format", contains: "expected a whole number"),
        Case(name: "missing title", files: ["story.json": story.replacingOccurrences(of: "\"title\":\"Corpus\",", with: "")], exit: 1, file: "story.json", path: "title", contains: "required field \"title\" is missing"),
        Case(name: "bad story id", files: ["story.json": story.replacingOccurrences(of: "\"corpus\"", with: "\"my story!\"")], exit: 1, file: "story.json", path: "id", contains: "is not valid"),
        Case(name: "bad criticality", files: ["story.json": story.replacingOccurrences(of: "}", with: ",\"assets\":{\"criticality\":{\"assets/pic.png\":\"vital\"}}}")], exit: 1, file: "story.json", path: "assets.criticality.assets/pic.png", contains: "unknown criticality"),
        Case(name: "start beat missing", files: ["story.json": story.replacingOccurrences(of: "\"startBeatId\":\"a\"", with: "\"startBeatId\":\"zz\"")], exit: 1, file: "story.json", path: "startBeatId", contains: "not in the beats list"),
        Case(name: "id/file mismatch", files: ["beats/b.json": beatB.replacingOccurrences(of: "\"id\":\"b\"", with: "\"id\":\"bb\"")], exit: 1, file: "beats/b.json", beat: "b", path: "id", contains: "does not match its file name"),
        Case(name: "duplicate page ids", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"e","type":"text","lines":["1"]},{"id":"e","type":"text","lines":["2"]}]}"#], exit: 1, file: "beats/b.json", beat: "b", page: "e", path: "pages[1].id", contains: "used twice"),
        Case(name: "choice not last", files: beatA(replacing: #"{"id":"t","type":"title","title":"Hello","imageUrl":"assets/pic.png","imageAlt":"A wave"},"#, with: "").merging(["beats/a.json": beatA.replacingOccurrences(of: "]}]}", with: "]},{\"id\":\"z\",\"type\":\"text\",\"lines\":[\"after\"]}]}")]) { $1 }, exit: 1, file: "beats/a.json", beat: "a", page: "c", path: "pages[2]", contains: "must be the last page"),
        Case(name: "0 choices", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"q","type":"choice","choices":[]}]}"#], exit: 1, file: "beats/b.json", beat: "b", page: "q", path: "pages[0].choices", contains: "1 to 9 choices (found 0)"),
        Case(name: "10 choices", files: ["beats/b.json": "{\"id\":\"b\",\"pages\":[{\"id\":\"q\",\"type\":\"choice\",\"choices\":[" + Array(repeating: #"{"text":"x","targetBeatId":"c"}"#, count: 10).joined(separator: ",") + "]}]}"], exit: 1, file: "beats/b.json", beat: "b", page: "q", path: "pages[0].choices", contains: "found 10"),
        Case(name: "target missing", files: beatA(replacing: "\"targetBeatId\":\"c\"", with: "\"targetBeatId\":\"nowhere\""), exit: 1, file: "beats/a.json", beat: "a", page: "c", path: "pages[2].choices[1].targetBeatId", contains: "not in story.json's beats list"),
        Case(name: "unreachable beat", files: ["story.json": story.replacingOccurrences(of: "\"c\"]", with: "\"c\",\"d\"]"), "beats/d.json": #"{"id":"d","pages":[{"id":"e","type":"text","lines":["lost"]}]}"#], exit: 1, file: "beats/d.json", beat: "d", path: "", contains: "unreachable"),
        Case(name: "listed beat file missing", files: ["beats/c.json": nil], exit: 1, file: "beats/c.json", beat: "c", path: "", contains: "beat file is missing"),
        Case(name: "path traversal", files: beatA(replacing: "assets/pic.png", with: "../pic.png"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "'..'"),
        Case(name: "absolute path", files: beatA(replacing: "assets/pic.png", with: "/etc/passwd"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "absolute path"),
        Case(name: "URL as asset", files: beatA(replacing: "assets/pic.png", with: "https://example.com/pic.png"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "a URL is not allowed"),
        Case(name: "backslash", files: beatA(replacing: "assets/pic.png", with: "assets\\\\pic.png"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "backslash"),
        Case(name: "NUL", files: beatA(replacing: "assets/s.wav", with: "assets/s\\u0000.wav"), exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].tools[0].args.sound_url", contains: "NUL"),
        Case(name: "missing asset", files: ["assets/pic.png": nil], exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "the file is missing"),
        Case(name: "undecodable sound", files: ["assets/s.wav": "garbage"], exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].tools[0].args.sound_url", contains: "not a sound"),
        Case(name: "undecodable image", files: ["assets/pic.png": "GIF89a"], exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "not a picture"),
        Case(name: "huge line", files: beatA(replacing: "\"one\"", with: "\"" + String(repeating: "x", count: 10_001) + "\""), exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].lines[0]", contains: "10001 characters"),
        Case(name: "wrong type for lines", files: beatA(replacing: "[\"one\",\"two\"]", with: "\"one\""), exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].lines", contains: "expected an array"),
        Case(name: "empty lines", files: beatA(replacing: "[\"one\",\"two\"]", with: "[]"), exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].lines", contains: "at least one line"),
        Case(name: "empty pages", files: ["beats/b.json": #"{"id":"b","pages":[]}"#], exit: 1, file: "beats/b.json", beat: "b", path: "pages", contains: "at least one page"),
        Case(name: "unknown page type", files: beatA(replacing: "\"type\":\"title\"", with: "\"type\":\"video\""), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].type", contains: "unknown page type"),
        Case(name: "duplicate key", files: beatA(replacing: "\"id\":\"a\",", with: "\"id\":\"a\",\"id\":\"a\","), exit: 1, file: "beats/a.json", beat: "a", path: "", contains: "appears twice"),
        Case(name: "deep nesting", files: ["beats/b.json": String(repeating: "[", count: 100) + String(repeating: "]", count: 100)], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "nesting deeper"),
        Case(name: "missing targetBeatId", files: beatA(replacing: ",\"targetBeatId\":\"b\"", with: ""), exit: 1, file: "beats/a.json", beat: "a", page: "c", path: "pages[2].choices[0].targetBeatId", contains: "required field"),
    ]

    func makeStory(_ overrides: [String: String?]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-corpus")
        var files: [String: String?] = [
            "story.json": Self.story, "beats/a.json": Self.beatA, "beats/b.json": Self.beatB, "beats/c.json": Self.beatC,
            "assets/pic.png": "PNG data", "assets/s.wav": "RIFF data",
        ]
        for (k, v) in overrides { files[k] = v }
        for (path, contents) in files { if let contents { try dir.write(path, contents) } }
        return dir
    }

    @Test func theValidBaseStoryIsClean() async throws {
        let dir = try makeStory([:])
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.exitCode == 0)
    }

    @Test(arguments: cases)
    func malformedPackageIsReportedWhereItIs(_ c: Case) async throws {
        let dir = try makeStory(c.files)
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.exitCode == c.exit, "\(report.findings)")
        let match = report.findings.first { $0.severity == .error && $0.message.contains(c.contains) }
        let finding = try #require(match, "no error containing \"\(c.contains)\" in \(report.findings)")
        #expect(finding.file == c.file)
        #expect(finding.beatId == c.beat)
        #expect(finding.pageId == c.page)
        #expect(finding.path == c.path)
    }

    @Test func nonUTF8BytesAreReportedWhereTheyAreWithoutBuryingThemInFollowUpErrors() async throws {
        let dir = try makeStory([:])
        defer { dir.remove() }
        try dir.write("beats/b.json", Data(#"{"id":"b","pages":[{"id":"e","type":"text","lines":[""#.utf8) + [0xFF, 0xFE] + Data(#""]}]}"#.utf8))
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.exitCode == 1)
        let errors = report.findings.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.file == "beats/b.json" && errors.first?.beatId == "b")
        #expect(errors.first?.message.contains("not valid UTF-8 (byte 0xff)") == true, "\(errors)")
        #expect(report.findings.contains { $0.severity == .warning && $0.message.contains("reachability and endings not checked") })
    }

    /// When the beats after the start cannot be read, validation says the endings were not checked, and
    /// nothing about them beside it (not "the story has no ending": the unread beats may hold them).
    @Test func unreadBeatsMeanEndingsNotCheckedAndNothingElseAboutEndings() async throws {
        let dir = try makeStory([
            "story.json": #"{"format":1,"id":"corpus","title":"Corpus","startBeatId":"a","beats":["a","b"]}"#,
            "beats/a.json": #"{"id":"a","pages":[{"id":"p","type":"text","lines":["on"]}],"nextBeatId":"b"}"#,
            "beats/b.json": #"{"id":"b","pages":[{"id":"p","type":"text","lines":["the end"]}"#,
            "beats/c.json": nil,
        ])
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.findings.contains { $0.severity == .warning && $0.message.contains("reachability and endings not checked") }, "\(report.findings)")
        #expect(!report.findings.contains { $0.message.contains("no ending") }, "\(report.findings)")
    }

    @Test func unknownToolsAndTriggersAreWarningsNotErrors() async throws {
        let dir = try makeStory(Self.beatA(replacing: #"{"name":"sound_effect","args":{"sound_url":"assets/s.wav","trigger":"tap"}}"#,
                                           with: #"{"name":"confetti","args":{}},{"name":"sound_effect","args":{"sound_url":"assets/s.wav","trigger":"page_exit"}}"#))
        defer { dir.remove() }
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.exitCode == 0, "\(report.findings)")
        #expect(report.findings.contains { $0.severity == .warning && $0.path == "pages[1].tools[0]" && $0.message.contains("unknown tool") })
        #expect(report.findings.contains { $0.severity == .warning && $0.path == "pages[1].tools[1]" && $0.message.contains("unknown trigger") })
    }

    @Test func aSymlinkOutOfThePackageIsRefused() async throws {
        let dir = try makeStory(["assets/pic.png": nil])
        defer { dir.remove() }
        let outside = try TemporaryDirectory(prefix: "pajama-outside")
        defer { outside.remove() }
        try outside.write("secret.png", "PNG secret")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/assets/pic.png", withDestinationPath: outside.path + "/secret.png")
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: FakeProbe())
        #expect(report.exitCode == 1)
        #expect(report.findings.contains { $0.path == "pages[0].imageUrl" && $0.message.contains("outside the story folder") })
    }
}
