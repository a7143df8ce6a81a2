import Clocks
import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaHTTP
import PajamaTestSupport
import Testing

/// Loads against the in-process test server on 127.0.0.1: statuses, broken and slow responses, the server
/// going away, and whole reads through the content manager and the disk cache.
@Suite(.serialized) struct HTTPIntegrationTests {
    static let quickRetry = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20),
                                        progressTimeout: .seconds(20), deadline: .seconds(60))

    func source(_ server: TestHTTPServer, timeout: Duration = .seconds(20), limit: Int = 16 << 20) -> HTTPStorySource {
        HTTPStorySource(baseURL: URL(string: server.baseURL)!, progressTimeout: timeout, maximumResponseSize: limit)
    }

    func read(_ source: HTTPStorySource, _ path: String) async -> Result<[UInt8], StorySourceError> {
        do throws(StorySourceError) {
            return .success(try await source.read(path))
        } catch {
            return .failure(error)
        }
    }

    func open(_ server: TestHTTPServer, disk: DiskCache?, retry: RetryPolicy = quickRetry) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: source(server), diskCache: disk, decodeImage: { _, bytes throws(AssetLoadError) in
                .textArt(lines: [String(decoding: bytes, as: UTF8.self)])
            }, sound: nil, preloading: false, retry: retry)
    }

    @Test func aFileIsReadWhole() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url)
        defer { server.stopSoon() }
        let bytes = try await source(server).read("assets/big.bin")
        #expect(bytes == [UInt8](repeating: 7, count: 64 * 1024))
    }

    @Test func aMissingFileIsNotFoundAndNotRetried() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url)
        defer { server.stopSoon() }
        #expect(await read(source(server), "beats/nowhere.json") == .failure(.notFound(path: "beats/nowhere.json")))
        let content = try await open(server, disk: nil)
        await #expect(throws: AssetLoadError(.notFound, subject: "beat nowhere", detail: "beats/nowhere.json")) {
            try await content.loadBeat("nowhere")
        }
        #expect(server.requestCount(for: "beats/nowhere.json") == 2)  // once per read: no retry
    }

    @Test func aServerErrorIsRetriedThenReported() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(statuses: ["beats/left.json": 500]))
        defer { server.stopSoon() }
        #expect(await read(source(server), "beats/left.json") == .failure(.httpStatus(path: "beats/left.json", status: 500)))
        let content = try await open(server, disk: nil)
        do {
            _ = try await content.loadBeat("left")
            Issue.record("a beat answered with 500 loaded")
        } catch {
            #expect(error.kind == .serverError)
            #expect(error.isTransient)
            #expect(error.readerMessage == "beats/left.json could not be fetched: the server failed (HTTP 500).")
        }
        #expect(server.requestCount(for: "beats/left.json") == 1 + 3)  // the plain read, then three attempts
    }

    @Test func aTruncatedBodyIsAnErrorNotAShortSuccess() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(truncated: ["assets/big.bin": 1]))
        defer { server.stopSoon() }
        let result = await read(source(server), "assets/big.bin")
        guard case .failure(.truncated(let path, let expected, let received)) = result else {
            Issue.record("expected truncated, got \(result)")
            return
        }
        #expect(path == "assets/big.bin")
        #expect(expected == 64 * 1024)
        #expect(received < expected)
        #expect(AssetLoadError(.truncated(path: path, expected: expected, received: received)).isTransient)
    }

    @Test func aResponseOverTheSizeLimitIsRefused() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url)
        defer { server.stopSoon() }
        #expect(await read(source(server, limit: 1000), "assets/big.bin") == .failure(.tooLarge(path: "assets/big.bin", limit: 1000)))
        #expect(await read(source(server, limit: 1000), "assets/start.txt") == .success(Array("a picture".utf8)))
    }

    @Test func aServerStoppingMidReadIsAnErrorAndARestartedServerWorks() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let stalling = try await TestHTTPServer(root: story.url, options: .init(stalling: ["assets/big.bin": 1]))
        let port = stalling.port
        let source = source(stalling)
        let pending = Task { await read(source, "assets/big.bin") }
        #expect(await stalling.waitForRequest("assets/big.bin"))  // half the body is out; the server hangs
        await stalling.stop()
        let result = await pending.value
        switch result {
        case .failure(.truncated), .failure(.io): break
        default: Issue.record("expected a broken transfer, got \(result)")
        }
        try await stalling.restart()
        defer { stalling.stopSoon() }
        #expect(stalling.port == port)
        #expect(stalling.baseURL == source.baseURL.absoluteString.dropLast(1).description)
        #expect(await read(source, "assets/big.bin") == .success([UInt8](repeating: 7, count: 64 * 1024)))
    }

    /// A server that never answers a beat. No real time is measured for the retry policy's timeout: it
    /// runs on a virtual clock moved once the load waits on it (with 0.3 s of real time, one loaded run
    /// failed: a slow story.json or beat request on a busy machine ran into it).
    @Test func aSlowServerTimesOut() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        var options = TestHTTPServer.Options()
        options.held = ["beats/left.json"]
        let server = try await TestHTTPServer(root: story.url, options: options)
        defer { server.stopSoon() }
        // The retry policy's progress timeout (nothing arrives)...
        let clock = TestClock()
        let content = try await open(server, disk: nil, retry: RetryPolicy(attempts: 1, progressTimeout: .milliseconds(300), clock: clock))
        let load = Task { () async -> AssetLoadError? in
            do throws(AssetLoadError) {
                _ = try await content.loadBeat("left")
                return nil
            } catch {
                return error
            }
        }
        #expect(await clock.waitForSleeper(), "the load never waited on its progress timeout")
        await clock.advance(by: .milliseconds(300))
        let error = await load.value
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(error?.detail.contains("no progress for 0.3 s") == true, "\(String(describing: error))")
        // ...and the source's own timeout (no byte for too long).
        #expect(await read(source(server, timeout: .milliseconds(500)), "beats/left.json")
                == .failure(.timeout(path: "beats/left.json", idle: .milliseconds(500))))
    }

    @Test func aWholeReadIsServedFromDiskTheSecondTimeAndANewVersionIsNot() async throws {
        let story = try ServedStory()
        defer { story.dir.remove() }
        let cacheDir = try TemporaryDirectory(prefix: "pajama-http-cache")
        defer { cacheDir.remove() }
        let server = try await TestHTTPServer(root: story.url)
        defer { server.stopSoon() }
        let disk = DiskCache(root: cacheDir.url)

        let first = try await open(server, disk: disk)
        #expect(try await readToTheEnd(first) == ["start", "left", "end"])
        let cold = await first.metrics()
        #expect(cold.sourceRequests == 4)  // the three beats read, and right for the end screen's count of endings
        #expect(cold.disk.hits == 0)

        // A second reader on the same disk cache: no beat comes from the network.
        let second = try await open(server, disk: disk)
        #expect(try await readToTheEnd(second) == ["start", "left", "end"])
        let warm = await second.metrics()
        #expect(warm.sourceRequests == 0)
        #expect(warm.disk.hits == 4)
        #expect(server.requestCount(for: "beats/start.json") == 1)
        #expect(server.requestCount(for: "assets/start.txt") == 1)

        // A new version of the story never sees the old entries.
        try story.write(version: "2")
        let third = try await open(server, disk: disk)
        #expect(third.manifest.version == "2")
        #expect(try await readToTheEnd(third) == ["start", "left", "end"])
        #expect(await third.metrics().sourceRequests == 4)
        #expect(await third.metrics().disk.hits == 0)
        #expect(server.requestCount(for: "beats/start.json") == 2)
    }

    /// Reads from the start to the end with the reader, taking the first choice; returns the beats seen once
    /// the end screen has counted the story's endings (it reads every listed beat for that, in the background).
    @MainActor
    func readToTheEnd(_ content: StoryContentManager) async throws -> [String] {
        let reader = ReaderViewModel(content: content, sound: nil, progress: nil)
        let log = NavigatorEventLog(reader.events())
        await reader.start()
        var beats: [String] = []
        for _ in 0..<20 {
            switch reader.state {
            case .page(let page):
                if beats.last != page.beat.id { beats.append(page.beat.id) }
                if case .choice = page.page.kind { await reader.changePage(.choose(0)) } else { await reader.changePage(.advance) }
            case .finished:
                let counted = await log.waitFor { $0.contains { if case .stateChanged(.finished(_, let s)) = $0 { s.endingsTotal != nil } else { false } } }
                #expect(counted, "the end screen never counted the endings")
                return beats
            default:
                Issue.record("unexpected state \(reader.state)")
                return beats
            }
        }
        return beats
    }
}
