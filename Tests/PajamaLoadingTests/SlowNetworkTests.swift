import Foundation
import PajamaFormats
import PajamaHTTP
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// Slow and unfriendly networks, against the in-process server with a rate limit: long transfers that
/// progress are never cut, cut transfers resume with Range (never stitched across versions), silence
/// fails after the progress timeout, and loads report their bytes.
@Suite(.serialized) struct SlowNetworkTests {
    /// 200 KB of a pattern (no two halves alike, so a wrong stitch shows).
    static let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }

    func served() throws -> ServedStory {
        let story = try ServedStory()
        try story.dir.write("assets/big.bin", Data(Self.big))
        return story
    }

    func source(_ server: TestHTTPServer, progressTimeout: Duration = .seconds(10)) -> HTTPStorySource {
        HTTPStorySource(baseURL: URL(string: server.baseURL)!, progressTimeout: progressTimeout)
    }

    func manager(_ server: TestHTTPServer, retry: RetryPolicy) -> StoryContentManager {
        StoryContentManager(
            manifest: StoryManifest(id: "served", title: "Served", version: "1", startBeatId: "start"), source: source(server),
            diskCache: nil, decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: ["\(bytes.count)", "\(bytes.hashValue)"]) },
            sound: nil, preloading: false, retry: retry)
    }

    /// A body that takes about 2 s at 100 KB/s loads in full, in one request, under a retry policy whose
    /// deadline (0.1 s) is far shorter than the transfer: a transfer that keeps progressing is never cut
    /// (the progress timeout itself is tested on a manual clock in RetryPolicyTests, and at the source
    /// below). Its progress events count up to the whole size. (Before: every attempt was cut at what
    /// was left of the deadline, and the load failed as a timeout.)
    @Test func aLargeBodyOverASlowLinkLoadsInFullAndReportsProgress() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(bytesPerSecond: 100_000))
        defer { server.stopSoon() }
        let content = manager(server, retry: RetryPolicy(attempts: 1, progressTimeout: .seconds(60), deadline: .milliseconds(100)))
        let events = content.loadingEvents()
        let path = try AssetPath(validating: "assets/big.bin")
        let image = try await content.loadImage(path)
        #expect(image == .textArt(lines: ["\(Self.big.count)", "\(Self.big.hashValue)"]))
        let seen = await collect(events) { $0.contains { if case .finished = $0 { true } else { false } } }
        let progress = seen.compactMap { event -> TransferProgress? in if case .progress(.image(path), let p) = event { p } else { nil } }
        #expect(progress.count >= 3, "progress reported along the way: \(progress)")
        #expect(progress.allSatisfy { $0.expected == Self.big.count })
        #expect(progress.map(\.received) == progress.map(\.received).sorted())
        #expect(progress.last?.received == Self.big.count)
        #expect(server.requestCount(for: "assets/big.bin") == 1)
    }

    /// Two bodies over one shared link (`linkBytesPerSecond`, the asset bench's slow network) arrive
    /// whole, their bytes counted once each, and the link takes their slices in turn: when the first is
    /// done the second has long been under way (a per-response limit would have served them as two links).
    /// Both requests are held until both have arrived, so a busy machine that sends the second late cannot
    /// make the first finish alone (it failed so under load: the other had received 0 bytes).
    @Test func twoBodiesOverASharedLinkArriveWholeAndTakeTurns() async throws {
        let story = try served()
        defer { story.dir.remove() }
        try story.dir.write("assets/other.bin", Data(Self.big.reversed()))
        let server = try await TestHTTPServer(root: story.url)
        server.update {
            $0.linkBytesPerSecond = 400_000
            $0.held = ["assets/big.bin", "assets/other.bin"]
        }
        defer { server.stopSoon() }
        let content = manager(server, retry: RetryPolicy(attempts: 1, progressTimeout: .seconds(60)))
        let events = content.loadingEvents()
        let first = try AssetPath(validating: "assets/big.bin"), second = try AssetPath(validating: "assets/other.bin")
        async let a = content.loadImage(first)
        async let b = content.loadImage(second)
        let firstArrived = await server.waitForArrival("assets/big.bin", timeout: 120)
        let otherArrived = await server.waitForArrival("assets/other.bin", timeout: 120)
        #expect(firstArrived && otherArrived)
        server.update { $0.held = [] }
        let (imageA, imageB) = try await (a, b)
        #expect(imageA == .textArt(lines: ["\(Self.big.count)", "\(Self.big.hashValue)"]))
        #expect(imageB == .textArt(lines: ["\(Self.big.count)", "\(Array(Self.big.reversed()).hashValue)"]))
        #expect(server.bodyBytesSent == 2 * Self.big.count)
        #expect(server.allRequests.map(\.path).sorted() == ["assets/big.bin", "assets/other.bin"])
        let seen = await collect(events) { $0.filter { if case .finished = $0 { true } else { false } }.count == 2 }
        guard let done = seen.firstIndex(where: { if case .finished = $0 { true } else { false } }),
              case .finished(let firstDone, _, _) = seen[done] else {
            Issue.record("no finished event")
            return
        }
        let other: LoadSubject = firstDone == .image(first) ? .image(second) : .image(first)
        let otherReceived = seen[..<done].compactMap { event -> Int? in
            if case .progress(other, let p) = event { p.received } else { nil }
        }.max() ?? 0
        #expect(otherReceived >= Self.big.count / 4, "the other body was under way when the first was done")
    }

    /// A transfer cut halfway is resumed by the retry with `Range: bytes=<received>-` and the ETag in
    /// If-Range; the 206 continues it and the file arrives whole, in two requests.
    @Test func anInterruptedTransferResumesWithARangeRequest() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(truncated: ["assets/big.bin": 1]))
        defer { server.stopSoon() }
        let content = manager(server, retry: RetryPolicy(attempts: 2, baseDelay: .milliseconds(10)))
        let image = try await content.loadImage(try AssetPath(validating: "assets/big.bin"))
        #expect(image == .textArt(lines: ["\(Self.big.count)", "\(Self.big.hashValue)"]))
        let requests = server.requests(for: "assets/big.bin")
        #expect(requests.count == 2)
        #expect(requests.first?.range == nil)
        // The first response was cut after at most half the body; the resume asks for the rest of it.
        let resumedAt = requests.last?.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }
        #expect(resumedAt.map { $0 > 0 && $0 <= Self.big.count / 2 } == true, "\(requests)")
        #expect(requests.last?.ifRange != nil && requests.last?.ifRange == requests.last.map { _ in TestHTTPServer.eTag(Self.big) })
        #expect(requests.last?.status == 206)
    }

    /// The file changes between the cut and the resume: If-Range no longer matches, the server sends
    /// the whole new file (200) and that is what is read, never the old half plus the new rest.
    @Test func aFileChangedBetweenTheTwoRequestsIsNotStitched() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let changed = Self.big.map { $0 ^ 0x5a }
        let server = try await TestHTTPServer(
            root: story.url, options: .init(truncated: ["assets/big.bin": 1], changedAfterFirstResponse: ["assets/big.bin": changed]))
        defer { server.stopSoon() }
        let source = source(server)
        let first = await read(source, "assets/big.bin")
        guard case .failure(.truncated(_, let expected, let received)) = first else {
            Issue.record("expected a cut transfer, got \(first)")
            return
        }
        #expect(expected == Self.big.count && received > 0 && received <= Self.big.count / 2)
        #expect(await read(source, "assets/big.bin") == .success(changed))
        let requests = server.requests(for: "assets/big.bin")
        #expect(requests.last?.range == "bytes=\(received)-")
        #expect(requests.last?.ifRange == TestHTTPServer.eTag(Self.big))
        #expect(requests.last?.status == 200)
        // The new version is read whole from then on (nothing kept from the old one).
        #expect(await read(source, "assets/big.bin") == .success(changed))
        #expect(server.requests(for: "assets/big.bin").last?.range == nil)
    }

    /// A server that sends half the body and then nothing fails after the progress timeout (2 s), not
    /// never, and says so: no data arrived for 2 s. The part received is kept and a later read resumes.
    @Test func aStalledServerFailsAfterTheProgressTimeout() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(stalling: ["assets/big.bin": 1]))
        defer { server.stopSoon() }
        let source = source(server, progressTimeout: .seconds(2))
        let result = await read(source, "assets/big.bin")
        #expect(result == .failure(.timeout(path: "assets/big.bin", idle: .seconds(2))))
        if case .failure(let error) = result {
            #expect(AssetLoadError(error).readerMessage == "assets/big.bin timed out: no data arrived for 2 s.")
        }
        let resumed = await read(source, "assets/big.bin")
        #expect(resumed == .success(Self.big), "the read after the stall: \(resumed.map(\.count)); requests: \(server.requests(for: "assets/big.bin"))")
        #expect(server.requests(for: "assets/big.bin").last?.status == 206)
    }

    /// Cancelling the reading task cancels the request mid-body (it ends as `.cancelled`; the body stalls
    /// half-way until the server stops, so it cannot have ended by itself), and what arrived is kept: the
    /// next read asks only for the rest.
    @Test func cancellingTheTaskCancelsTheRequestAndKeepsThePart() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url, options: .init(stalling: ["assets/big.bin": 1]))
        defer { server.stopSoon() }
        let source = source(server)
        let progress = AttemptLog()
        let reading = Task { () async -> Result<[UInt8], StorySourceError> in
            do throws(StorySourceError) {
                return .success(try await source.read("assets/big.bin", progress: { p in
                    if p.received >= 20_000 { Task { await progress.record() } }
                }))
            } catch {
                return .failure(error)
            }
        }
        #expect(await eventually { await progress.count > 0 }, "20 KB arrived")
        reading.cancel()
        #expect(await reading.value == .failure(.cancelled(path: "assets/big.bin")))
        #expect(await read(source, "assets/big.bin") == .success(Self.big))
        let resumedAt = server.requests(for: "assets/big.bin").last?.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }
        #expect(resumedAt.map { $0 >= 20_000 && $0 < Self.big.count } == true)
    }

    /// Every request says who asks (`pajama/<version>`) and accepts gzip; a gzip body is read decoded.
    @Test func requestsCarryTheUserAgentAndGzipIsDecoded() async throws {
        let story = try served()
        defer { story.dir.remove() }
        // Compresses about 4:1 (AsyncHTTPClient's shared client refuses more than 25:1, a decompression bomb).
        let text = (0..<2000).map { "line \($0): \(($0 &* 7919) % 10007) \(($0 &* 104_729) % 65_521)\n" }.joined()
        let gzipped = try Self.gzip(Array(text.utf8))
        #expect(gzipped.count < text.utf8.count / 2)
        var options = TestHTTPServer.Options()
        options.encoded = ["assets/story.txt": ("gzip", gzipped)]
        let server = try await TestHTTPServer(root: story.url, options: options)
        defer { server.stopSoon() }
        let result = await read(source(server), "assets/story.txt")
        #expect(result == .success(Array(text.utf8)), "\(result.map(\.count))")
        let request = server.requests(for: "assets/story.txt").first
        #expect(request?.userAgent == "pajama/\(PajamaVersion.current)")
        #expect(request?.acceptEncoding?.contains("gzip") == true)
    }

    /// A story URL ending in /story.json is the package's base URL.
    @Test func aURLEndingInStoryJSONIsTheBaseURL() async throws {
        let story = try served()
        defer { story.dir.remove() }
        let server = try await TestHTTPServer(root: story.url)
        defer { server.stopSoon() }
        let source = await StorySources.open(server.baseURL + "/story.json")
        #expect(source.location == server.baseURL + "/")
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil, decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: nil,
            preloading: false)
        #expect(content.manifest.id == "served")
        #expect(try await content.loadBeat("left").id == "left")
        #expect(HTTPStorySource(baseURL: URL(string: "https://example.org/tales/story.json?v=2")!).location == "https://example.org/tales/")
        #expect(HTTPStorySource(baseURL: URL(string: "https://example.org/tales")!).location == "https://example.org/tales/")
    }

    func read(_ source: HTTPStorySource, _ path: String) async -> Result<[UInt8], StorySourceError> {
        do throws(StorySourceError) {
            return .success(try await source.read(path))
        } catch {
            return .failure(error)
        }
    }

    /// `bytes` compressed by gzip(1).
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let dir = try TemporaryDirectory(prefix: "pajama-gzip")
        defer { dir.remove() }
        let file = try dir.write("body", Data(bytes))
        let result = try ChildProcess.run("gzip", ["-n", "-k", file.path])
        guard result.status == 0, let data = FileManager.default.contents(atPath: file.path + ".gz") else {
            throw GzipFailed(message: result.stderr)
        }
        return [UInt8](data)
    }
}

struct GzipFailed: Error {
    var message: String
}
