import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// More of the bad-input corpus for story.json and beat files (issue 11, section 3), on the same valid
/// base story as MalformedCorpusTests: each case breaks one thing and checks the error's file, beat,
/// page, field, words and `pajama validate` exit code.
@Suite struct MalformedStoryCorpusTests {
    typealias Case = MalformedCorpusTests.Case
    static let story = MalformedCorpusTests.story
    static let beatA = MalformedCorpusTests.beatA
    static func beatA(replacing old: String, with new: String) -> [String: String?] { MalformedCorpusTests.beatA(replacing: old, with: new) }
    static func storyReplacing(_ old: String, with new: String) -> [String: String?] { ["story.json": story.replacingOccurrences(of: old, with: new)] }

    static let cases: [Case] = [
        Case(name: "story.json is empty (0 bytes)", files: ["story.json": ""], exit: 1, file: "story.json", path: "", contains: "not valid JSON: line 1, column 1: unexpected end of the document"),
        Case(name: "story.json is an array", files: ["story.json": "[1,2]"], exit: 1, file: "story.json", path: "", contains: "expected an object, found an array"),
        Case(name: "story.json is an HTML page", files: ["story.json": "<!DOCTYPE html><html><body>Not found</body></html>"], exit: 1, file: "story.json", path: "", contains: "unexpected character '<'"),
        Case(name: "story.json has trailing content", files: ["story.json": story + "{}"], exit: 1, file: "story.json", path: "", contains: "unexpected content after the end of the document"),
        Case(name: "story.json nested too deep", files: ["story.json": String(repeating: "{\"a\":", count: 65) + "1" + String(repeating: "}", count: 65)], exit: 1, file: "story.json", path: "", contains: "nesting deeper than 64 levels"),
        Case(name: "story.json over 4 MB", files: ["story.json": story.replacingOccurrences(of: "\"Corpus\"", with: "\"Corpus\",\"pad\":\"" + String(repeating: "x", count: 4 * 1024 * 1024) + "\"")], exit: 1, file: "story.json", path: "", contains: "bytes (at most 4194304)"),
        Case(name: "title over 500 characters", files: storyReplacing("\"Corpus\"", with: "\"" + String(repeating: "t", count: 501) + "\""), exit: 1, file: "story.json", path: "title", contains: "501 characters long (at most 500)"),
        Case(name: "title is a number", files: storyReplacing("\"Corpus\"", with: "42"), exit: 1, file: "story.json", path: "title", contains: "expected a string"),
        Case(name: "beats is an object", files: storyReplacing("[\"a\",\"b\",\"c\"]", with: "{\"a\":1}"), exit: 1, file: "story.json", path: "beats", contains: "expected an array"),
        Case(name: "beat id with a slash", files: storyReplacing("\"c\"]", with: "\"c\",\"../x\"]"), exit: 1, file: "story.json", path: "beats[3]", contains: "is not valid"),
        Case(name: "unterminated string", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"e","type":"text","lines":["The end.]}]}"#], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "unterminated string"),
        Case(name: "raw control character in a string", files: ["beats/b.json": "{\"id\":\"b\",\"pages\":[{\"id\":\"e\",\"type\":\"text\",\"lines\":[\"a\u{1B}[2Jb\"]}]}"], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "raw control character (0x1b)"),
        Case(name: "unpaired surrogate escape", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"e","type":"text","lines":["\ud800"]}]}"#], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "unpaired surrogate escape"),
        Case(name: "invalid escape", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"e","type":"text","lines":["\q"]}]}"#], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "invalid escape '\\q'"),
        Case(name: "truncated beat file", files: ["beats/b.json": #"{"id":"b","pages":[{"id":"e","ty"#], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "line 1, column 30: unterminated string"),
        Case(name: "beat file cut after a bracket", files: ["beats/b.json": #"{"id":"b","pages":["#], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "unexpected end of the document"),
        Case(name: "beat file is 0 bytes", files: ["beats/b.json": ""], exit: 1, file: "beats/b.json", beat: "b", path: "", contains: "unexpected end of the document"),
        Case(name: "more than 1000 pages", files: ["beats/b.json": "{\"id\":\"b\",\"pages\":[" + (0...1000).map { "{\"id\":\"p\($0)\",\"type\":\"text\",\"lines\":[\"x\"]}" }.joined(separator: ",") + "]}"], exit: 1, file: "beats/b.json", beat: "b", path: "pages", contains: "more than 1000 pages"),
        Case(name: "page id over 128 characters", files: ["beats/b.json": "{\"id\":\"b\",\"pages\":[{\"id\":\"" + String(repeating: "p", count: 129) + "\",\"type\":\"text\",\"lines\":[\"x\"]}]}"], exit: 1, file: "beats/b.json", beat: "b", page: String(repeating: "p", count: 128) + "...", path: "pages[0].id", contains: "129 characters long (at most 128)"),
        Case(name: "choice text over 10000 characters", files: beatA(replacing: "{\"text\":\"B\"", with: "{\"text\":\"" + String(repeating: "b", count: 10_001) + "\""), exit: 1, file: "beats/a.json", beat: "a", page: "c", path: "pages[2].choices[0].text", contains: "10001 characters long"),
        Case(name: "page is a string", files: ["beats/b.json": #"{"id":"b","pages":["text"]}"#], exit: 1, file: "beats/b.json", beat: "b", path: "pages[0]", contains: "expected an object, found a string"),
        // "%2e%2e" is a file name, never decoded to ".." (over HTTP it is sent as "%252e%252e": see URLCorpusTests).
        Case(name: "asset path percent-encoded traversal", files: beatA(replacing: "assets/pic.png", with: "%2e%2e/pic.png"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "%2e%2e/pic.png: the file is missing"),
        Case(name: "asset path traversal in the middle", files: beatA(replacing: "assets/pic.png", with: "assets/../../pic.png"), exit: 1, file: "beats/a.json", beat: "a", page: "t", path: "pages[0].imageUrl", contains: "'..'"),
        Case(name: "sound_url is a number", files: beatA(replacing: "\"assets/s.wav\"", with: "7"), exit: 1, file: "beats/a.json", beat: "a", page: "x", path: "pages[1].tools[0].args.sound_url", contains: "expected a string"),
    ]

    @Test(arguments: cases)
    func malformedPackageIsReportedWhereItIs(_ c: Case) async throws {
        try await MalformedCorpusTests().malformedPackageIsReportedWhereItIs(c)
    }

    /// A named pipe in place of an asset: opening it to read would wait for a writer forever.
    @Test func aFIFOInPlaceOfAnAssetIsRefusedWithoutWaiting() async throws {
        let dir = try MalformedCorpusTests().makeStory(["assets/pic.png": nil])
        defer { dir.remove() }
        #expect(mkfifo(dir.path + "/assets/pic.png", 0o600) == 0)
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: MalformedCorpusTests.FakeProbe())
        #expect(report.exitCode == 1, "\(report.findings)")
        #expect(report.findings.contains { $0.path == "pages[0].imageUrl" && $0.message.contains("assets/pic.png") && $0.message.contains("not a regular file") },
                "\(report.findings)")
    }

    /// A folder in place of an asset.
    @Test func aFolderInPlaceOfAnAssetIsReported() async throws {
        let dir = try MalformedCorpusTests().makeStory(["assets/pic.png": nil])
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/assets/pic.png", withIntermediateDirectories: true)
        let report = await StoryValidator.validate(source: FolderStorySource(folder: dir.path), probe: MalformedCorpusTests.FakeProbe())
        #expect(report.exitCode == 1, "\(report.findings)")
        #expect(report.findings.contains { $0.path == "pages[0].imageUrl" && $0.message.contains("assets/pic.png") }, "\(report.findings)")
    }
}
