import Foundation
import PajamaTestSupport
import Testing

/// The real binary over HTTP from the in-process server: HTTP errors named for what they are by `validate`,
/// story.json URLs (the reader's Loading screen and errors: PajamaReaderTests.HTTPReadingTests).
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
        try dir.write("assets/big.png", Data(PNGFile.padded([UInt8](png), by: 250_000)))
        return dir
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
    @Test func aRefusedConnectionIsSaidWithTheAddressByValidate() async throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        let port = closed.port
        let url = "http://127.0.0.1:\(port)/tale/"
        let validate = try ChildProcess.run(pajama, ["validate", url])
        #expect(validate.status == 2)
        #expect(validate.stdout.contains("story.json: cannot read the story: connection refused by 127.0.0.1:\(port)"), "\(validate.stdout)")
    }

    /// A URL of the story's story.json is accepted as its base URL.
    @Test func aStoryJSONURLIsAccepted() async throws {
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let result = try ChildProcess.run(pajama, ["validate", server.baseURL + "/lantern-keeper/story.json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("lantern-keeper: 0 errors"))
    }
}
