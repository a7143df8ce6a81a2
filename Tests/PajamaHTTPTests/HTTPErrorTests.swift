import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing

/// HTTP errors named for what they are, in the reader's words: refused (401, 403), missing (404),
/// the server failing (5xx, with its status).
@Suite(.serialized) struct HTTPErrorTests {
    func loadError(_ status: Int) async throws -> (AssetLoadError?, requests: Int) {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(statuses: ["assets/start.txt": status]))
        defer { server.stopSoon() }
        let content = StoryContentManager(
            manifest: StoryManifest(id: "served", title: "Served", version: "1", startBeatId: "start"),
            // No-progress limits far beyond any busy machine's delay: a request timed out is retried, which
            // is right but not what these tests count (a 403 was once counted twice under load).
            source: HTTPStorySource(baseURL: URL(string: server.baseURL)!, progressTimeout: .seconds(300)), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false, retry: RetryPolicy(attempts: 2, baseDelay: .milliseconds(10), progressTimeout: .seconds(300), deadline: .seconds(300)))
        let path = try AssetPath(validating: "assets/start.txt")
        do throws(AssetLoadError) {
            _ = try await content.loadImage(path)
            return (nil, server.requestCount(for: "assets/start.txt"))
        } catch {
            return (error, server.requestCount(for: "assets/start.txt"))
        }
    }

    @Test func forbiddenAndUnauthorizedAreRefusalsNotNetworkProblemsAndAreNotRetried() async throws {
        for status in [403, 401] {
            let (error, requests) = try await loadError(status)
            #expect(error?.kind == .refused)
            #expect(error?.readerMessage == "assets/start.txt was refused by the server (HTTP \(status)).")
            #expect(error?.isTransient == false)
            #expect(requests == 1)
        }
    }

    @Test func notFoundIsMissing() async throws {
        let (error, _) = try await loadError(404)
        #expect(error?.readerMessage == "assets/start.txt is missing from the story.")
    }

    @Test func serverErrorsNameTheirStatusAndAreRetried() async throws {
        for status in [500, 503] {
            let (error, requests) = try await loadError(status)
            #expect(error?.kind == .serverError)
            #expect(error?.readerMessage == "assets/start.txt could not be fetched: the server failed (HTTP \(status)).")
            #expect(requests == 2)
        }
    }

    @Test func sourceErrorsSayTheSame() {
        #expect(StorySourceError.httpStatus(path: "story.json", status: 403).description == "story.json: refused by the server (HTTP 403)")
        #expect(StorySourceError.httpStatus(path: "story.json", status: 502).description == "story.json: the server failed (HTTP 502)")
        #expect(StorySourceError.timeout(path: "a.png", idle: .seconds(10)).description == "a.png: timed out: no data arrived for 10 s")
        #expect(StorySourceError.timeout(path: "a.png", idle: .milliseconds(500)).description == "a.png: timed out: no data arrived for 0.5 s")
    }
}
