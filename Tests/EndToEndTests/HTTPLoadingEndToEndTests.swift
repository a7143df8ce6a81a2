import Foundation
import PajamaTestSupport
import Testing

/// The real binary over HTTP from the in-process server: the Loading screen with its byte count over a
/// slow link, HTTP errors named for what they are (reader and `validate`), story.json URLs.
@Suite(.serialized) struct HTTPLoadingEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// A one-beat story whose first page has a critical picture of about 250 KB (a real PNG padded with
    /// a text chunk, so it stays decodable).
    func slowPictureStory() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-e2e-slow")
        try dir.write("story.json", """
        {"format":1,"id":"slow","title":"Slow Picture","version":"1","startBeatId":"start","beats":["start"],
         "assets":{"criticality":{"assets/big.png":"critical"}}}
        """)
        try dir.write("beats/start.json", """
        {"id":"start","pages":[{"id":"p","type":"text","lines":["The picture has arrived."],"imageUrl":"assets/big.png"}]}
        """)
        let png = try Data(contentsOf: PackagePaths.stories.appendingPathComponent("lantern-keeper/assets/images/storm.png"))
        try dir.write("assets/big.png", Data(Self.padded([UInt8](png), by: 250_000)))
        return dir
    }

    /// The first page waits for its critical picture (253 KB, whose body stops half-way until the test has
    /// seen the count): the screen says "Loading picture… N KB of 253 KB" while it arrives, then shows the
    /// page. (Before: only the status line, or "Loading..." without saying what or how far.) The pause
    /// replaced a 2.5 s body at 100 KB/s, which a busy machine's slow screen polls could miss whole.
    @Test func aSlowCriticalPictureShowsLoadingWithABytesCountThenThePage() async throws {
        let story = try slowPictureStory()
        defer { story.remove() }
        var options = TestHTTPServer.Options()
        options.pausedMidBody = ["assets/big.png"]
        let server = try await TestHTTPServer(root: story.url, options: options)
        defer { server.stopSoon() }
        let t = try TmuxSession([pajama, "read", "--no-sound", server.baseURL + "/"])
        defer { t.stop() }
        let loading = try t.waitFor("Loading picture…", timeout: 20)
        #expect(loading.contains("Slow Picture") || loading.contains("start"), "the status line is drawn: \(loading)")
        let size = try FileManager.default.attributesOfItem(atPath: story.path + "/assets/big.png")[.size] as? Int ?? 0
        let counting = try t.waitFor(" KB of \(size / 1000) KB", timeout: 20)
        #expect(counting.contains("Loading picture…"))
        server.update { $0.pausedMidBody = [] }
        try t.waitFor("The picture has arrived.", timeout: 30)
        #expect(server.requestCount(for: "assets/big.png") == 1)
    }

    /// The fault matrix's "slow drip": a critical picture at 1 byte a second. The Loading screen counts
    /// the bytes as they come (before, it published progress every 16 KB: the first byte's count stayed
    /// for hours), and q quits from the wait. (Back does not leave the wait yet: docs/security.md.)
    @Test func aPictureAtOneByteASecondIsCountedAndQuitWorks() async throws {
        let story = try TemporaryDirectory(prefix: "pajama-e2e-drip")
        defer { story.remove() }
        try story.write("story.json", """
        {"format":1,"id":"drip","title":"Drip","version":"1","startBeatId":"start","beats":["start"],
         "assets":{"criticality":{"assets/big.png":"critical"}}}
        """)
        try story.write("beats/start.json", """
        {"id":"start","pages":[{"id":"a","type":"text","lines":["The page before."]},
         {"id":"b","type":"text","lines":["The picture has arrived."],"imageUrl":"assets/big.png"}]}
        """)
        let png = try Data(contentsOf: PackagePaths.stories.appendingPathComponent("lantern-keeper/assets/images/storm.png"))
        try story.write("assets/big.png", png)
        // The picture is held (a preload asks for it on the page before) and let go at 1 byte a second.
        var options = TestHTTPServer.Options()
        options.held = ["assets/big.png"]
        let server = try await TestHTTPServer(root: story.url, options: options)
        defer { server.stopSoon() }
        let t = try TmuxSession([pajama, "read", "--no-sound", server.baseURL + "/"])
        defer { t.stop() }
        try t.waitFor("The page before.", timeout: 30)
        server.update {
            $0.bytesPerSecond = 1
            $0.held = []
        }
        try t.press("Space", thenWaitFor: "Loading picture…", timeout: 30)
        func count() -> Int? {
            let screen = t.screen()
            guard let range = screen.range(of: #"[0-9]+ bytes of"#, options: .regularExpression) else { return nil }
            return Int(screen[range].prefix { $0.isNumber })
        }
        var first: Int?
        #expect(Poll.until(timeout: 30) { first = count(); return first != nil }, "no byte count: \(t.screen())")
        #expect(Poll.until(timeout: 30) { (count() ?? 0) > (first ?? .max) }, "the count stayed at \(first ?? 0): \(t.screen())")
        try t.press("q", thenWaitFor: "[exited 0]", timeout: 30)
        #expect(t.paneValue("#{alternate_on}") == "0")
    }

    /// A critical picture the server refuses: the reader says so (not "network problem").
    @Test func aRefusedPictureSaysRefusedByTheServer() async throws {
        let story = try slowPictureStory()
        defer { story.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(statuses: ["assets/big.png": 403]))
        defer { server.stopSoon() }
        let t = try TmuxSession([pajama, "read", "--no-sound", server.baseURL + "/"])
        defer { t.stop() }
        let screen = try t.waitFor("refused by the server", timeout: 20)
        #expect(screen.contains("HTTP 403"))
        #expect(!screen.contains("network problem"))
    }

    /// `validate` names refusals and server failures with their status.
    @Test func validateNamesHTTPErrors() async throws {
        let story = try slowPictureStory()
        defer { story.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(statuses: ["story.json": 401, "beats/start.json": 503]))
        defer { server.stopSoon() }
        let refused = try ChildProcess.run(pajama, ["validate", server.baseURL + "/"])
        #expect(refused.status == 2)
        #expect(refused.stdout.contains("story.json: cannot read the story: refused by the server (HTTP 401)"), "\(refused.stdout)")
        server.update { $0.statuses = ["beats/start.json": 503] }
        let failing = try ChildProcess.run(pajama, ["validate", server.baseURL + "/"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("the server failed (HTTP 503)"), "\(failing.stdout)")
    }

    /// A server nobody answers at is said at once with its address, by the reader and by `validate` (issue
    /// 27: the reader showed a blank screen for 21 s, then "story.json timed out: no data arrived for 10 s").
    @Test func aRefusedConnectionIsSaidWithTheAddressByReadAndValidate() async throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        let port = closed.port
        let url = "http://127.0.0.1:\(port)/tale/"
        let validate = try ChildProcess.run(pajama, ["validate", url])
        #expect(validate.status == 2)
        #expect(validate.stdout.contains("story.json: cannot read the story: connection refused by 127.0.0.1:\(port)"), "\(validate.stdout)")
        let t = try TmuxSession([pajama, "read", "--no-sound", url])
        defer { t.stop() }
        let screen = try t.waitFor("connection refused by 127.0.0.1:\(port)", timeout: 20)
        #expect(!screen.contains("timed out"))
    }

    /// A URL of the story's story.json is accepted as its base URL.
    @Test func aStoryJSONURLIsAccepted() async throws {
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let result = try ChildProcess.run(pajama, ["validate", server.baseURL + "/lantern-keeper/story.json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("lantern-keeper: 0 errors"))
    }

    /// `png` with a tEXt chunk of `size` bytes after its header (libpng skips it; the size grows).
    static func padded(_ png: [UInt8], by size: Int) -> [UInt8] {
        let data = Array("Comment".utf8) + [0] + [UInt8](repeating: UInt8(ascii: "x"), count: size)
        let type = Array("tEXt".utf8)
        var chunk = withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + type + data
        chunk += withUnsafeBytes(of: crc32(type + data).bigEndian, Array.init)
        let afterHeader = 8 + 25  // signature, then IHDR (length, type, 13 bytes, CRC)
        return Array(png[..<afterHeader]) + chunk + Array(png[afterHeader...])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
