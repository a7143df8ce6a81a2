import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// Reading over HTTP from the in-process server, in process: the Loading screen with its byte count over
/// a slow link, quitting from the wait, and HTTP errors named for what they are.
@MainActor @Suite struct HTTPReadingTests {
    /// A one-beat story whose first page has a critical picture of about 250 KB (a real PNG padded with
    /// a text chunk, so it stays decodable).
    func slowPictureStory(in home: TemporaryDirectory) throws -> URL {
        try home.write("story/story.json", """
        {"format":1,"id":"slow","title":"Slow Picture","version":"1","startBeatId":"start","beats":["start"],
         "assets":{"criticality":{"assets/big.png":"critical"}}}
        """)
        try home.write("story/beats/start.json", """
        {"id":"start","pages":[{"id":"p","type":"text","lines":["The picture has arrived."],"imageUrl":"assets/big.png"}]}
        """)
        let png = try Data(contentsOf: PackagePaths.stories.appendingPathComponent("lantern-keeper/assets/images/storm.png"))
        try home.write("story/assets/big.png", Data(PNGFile.padded([UInt8](png), by: 250_000)))
        return home.url.appendingPathComponent("story")
    }

    /// The first page waits for its critical picture (253 KB, whose body stops half-way until the test has
    /// seen the count): the screen says "Loading picture… N KB of 253 KB" while it arrives, then shows the page.
    @Test func aSlowCriticalPictureShowsLoadingWithABytesCountThenThePage() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-slow-picture")
        defer { home.remove() }
        let story = try slowPictureStory(in: home)
        var options = TestHTTPServer.Options()
        options.pausedMidBody = ["assets/big.png"]
        let server = try await TestHTTPServer(root: story, options: options)
        defer { server.stopSoon() }
        let t = HeadlessReading.read(server.baseURL + "/", home: home)
        let loading = try await t.waitFor("Loading picture…")
        #expect(loading.contains("Slow Picture") || loading.contains("start"), "the status line is drawn: \(loading)")
        let size = try FileManager.default.attributesOfItem(atPath: story.path + "/assets/big.png")[.size] as? Int ?? 0
        let counting = try await t.waitFor(" KB of \(size / 1000) KB")
        #expect(counting.contains("Loading picture…"))
        server.update { $0.pausedMidBody = [] }
        try await t.waitFor("The picture has arrived.")
        #expect(server.requestCount(for: "assets/big.png") == 1)
        #expect(await t.quit() == 0)
    }

    /// The fault matrix's "slow drip": a critical picture at 1 byte a second. The Loading screen counts
    /// the bytes as they come, and q quits from the wait.
    @Test func aPictureAtOneByteASecondIsCountedAndQuitWorks() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-drip")
        defer { home.remove() }
        try home.write("story/story.json", """
        {"format":1,"id":"drip","title":"Drip","version":"1","startBeatId":"start","beats":["start"],
         "assets":{"criticality":{"assets/big.png":"critical"}}}
        """)
        try home.write("story/beats/start.json", """
        {"id":"start","pages":[{"id":"a","type":"text","lines":["The page before."]},
         {"id":"b","type":"text","lines":["The picture has arrived."],"imageUrl":"assets/big.png"}]}
        """)
        let png = try Data(contentsOf: PackagePaths.stories.appendingPathComponent("lantern-keeper/assets/images/storm.png"))
        try home.write("story/assets/big.png", png)
        // The picture is held (a preload asks for it on the page before) and let go at 1 byte a second.
        var options = TestHTTPServer.Options()
        options.held = ["assets/big.png"]
        let server = try await TestHTTPServer(root: home.url.appendingPathComponent("story"), options: options)
        defer { server.stopSoon() }
        let t = HeadlessReading.read(server.baseURL + "/", home: home)
        try await t.waitFor("The page before.")
        server.update {
            $0.bytesPerSecond = 1
            $0.held = []
        }
        try await t.press(.character(" "), thenWaitFor: "Loading picture…")
        func count(_ screen: String) -> Int? {
            guard let range = screen.range(of: #"[0-9]+ bytes of"#, options: .regularExpression) else { return nil }
            return Int(screen[range].prefix { $0.isNumber })
        }
        let first = try #require(count(try await t.waitUntil("a byte count") { count($0) != nil }))
        try await t.waitUntil("a count above \(first)") { (count($0) ?? 0) > first }
        #expect(await t.quit() == 0)
    }

    /// A critical picture the server refuses: the reader says so (not "network problem").
    @Test func aRefusedPictureSaysRefusedByTheServer() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-refused")
        defer { home.remove() }
        let server = try await TestHTTPServer(root: try slowPictureStory(in: home), options: .init(statuses: ["assets/big.png": 403]))
        defer { server.stopSoon() }
        let t = HeadlessReading.read(server.baseURL + "/", home: home)
        let screen = try await t.waitFor("refused by the server")
        #expect(screen.contains("HTTP 403"))
        #expect(!screen.contains("network problem"))
        #expect(await t.quit() == 0)
    }

    /// A server nobody answers at is said at once with its address (issue 27: the reader showed a blank
    /// screen for 21 s, then "story.json timed out: no data arrived for 10 s"), and nothing is drawn.
    @Test func aRefusedConnectionIsSaidWithTheAddress() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-closed-port")
        defer { home.remove() }
        let closed = try ClosedPort()
        defer { closed.close() }
        let t = HeadlessReading.read("http://127.0.0.1:\(closed.port)/tale/", home: home)
        #expect(await t.exitCode() == 2)
        #expect(t.stderr.contains("connection refused by 127.0.0.1:\(closed.port)"), "\(t.stderr)")
        #expect(!t.stderr.contains("timed out"), "\(t.stderr)")
        #expect(t.terminal.frameCount == 0)
    }
}
