import Foundation
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// The bad-input corpus for saved progress files (issue 11, section 3): whatever is at
/// `progress/<story>.json`, loading never crashes or hangs; a file that is not good progress is moved
/// aside and the warning names the file and the real reason.
@Suite struct ProgressFileCorpusTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bytes: [UInt8]
        var reason: String
        var description: String { name }
    }

    static let good = #"{"finished":false,"history":[],"location":{"beatId":"a","lineIndex":0,"pageId":"p"},"pagesRead":3}"#

    static let cases: [Case] = [
        Case(name: "0 bytes", bytes: [], reason: "not valid JSON"),
        Case(name: "truncated by half", bytes: Array(good.utf8.prefix(good.utf8.count / 2)), reason: "not valid JSON"),
        Case(name: "garbage", bytes: [0xFF, 0xFE, 0x00, 0x13, 0x37], reason: "not valid JSON"),
        Case(name: "an array", bytes: Array("[1,2,3]".utf8), reason: "not valid progress"),
        Case(name: "location missing", bytes: Array(#"{"finished":false,"history":[],"pagesRead":3}"#.utf8), reason: "the field \"location\" is missing"),
        Case(name: "pagesRead is text", bytes: Array(good.replacingOccurrences(of: "\"pagesRead\":3", with: "\"pagesRead\":\"3\"").utf8), reason: "\"pagesRead\" has the wrong type"),
        Case(name: "over 1 MB", bytes: Array(good.replacingOccurrences(of: "\"pagesRead\":3", with: "\"pagesRead\":3,\"pad\":\"" + String(repeating: "x", count: 1 << 20) + "\"").utf8), reason: "too large"),
    ]

    @Test(arguments: cases)
    func aBrokenProgressFileIsMovedAsideWithItsReason(_ c: Case) throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress-corpus")
        defer { dir.remove() }
        try dir.write("s.json", Data(c.bytes))
        let store = ProgressStore(folder: dir.url)
        let (progress, warning) = store.load(storyId: "s")
        #expect(progress == nil)
        let text = try #require(warning)
        #expect(text.contains("s.json"), "\(text)")
        #expect(text.contains(c.reason), "\(text)")
        #expect(text.contains("moved to s.json.corrupt-"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/s.json"))
        // A fresh save works after it.
        #expect(store.save(storyId: "s", ReadingProgress(location: StoryLocation(beatId: "a", pageId: "p"), history: [])) == nil)
        #expect(store.load(storyId: "s").progress?.location.beatId == "a")
    }

    @Test func theGoodBaseFileLoads() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress-corpus")
        defer { dir.remove() }
        try dir.write("s.json", Self.good)
        let (progress, warning) = ProgressStore(folder: dir.url).load(storyId: "s")
        #expect(warning == nil)
        #expect(progress?.pagesRead == 3)
    }

    /// A named pipe where the file should be: reading it would wait for a writer forever.
    @Test func aFIFOInPlaceOfTheFileIsRefusedWithoutWaiting() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress-corpus")
        defer { dir.remove() }
        #expect(mkfifo(dir.path + "/s.json", 0o600) == 0)
        let (progress, warning) = ProgressStore(folder: dir.url).load(storyId: "s")
        #expect(progress == nil)
        #expect(warning?.contains("not a regular file") == true, "\(String(describing: warning))")
    }

    /// A folder where the file should be is not progress either.
    @Test func aFolderInPlaceOfTheFileIsReported() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress-corpus")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/s.json", withIntermediateDirectories: true)
        let (progress, warning) = ProgressStore(folder: dir.url).load(storyId: "s")
        #expect(progress == nil)
        #expect(warning?.contains("not a regular file") == true, "\(String(describing: warning))")
    }
}
