import AsyncHTTPClient
import Foundation
import PajamaLoading
import PajamaModel
import PajamaHTTP
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Reading on alone (issue 26, item 7): when the owner quits, the host goes on serving the story's files to
/// the followers still connected, until the last leaves or the time is up; and a follower fetches the
/// package in the background while it follows, so reading on alone reaches every beat once the host is
/// gone. A real host and real followers on 127.0.0.1.
@Suite(.serialized) struct HostReadingOnAloneTests {
    static let token = HostFileServingTests.token

    /// The followers' count the host reports after the owner quit, until it stopped serving.
    final class Counts: Sendable {
        private let values = Locked<[Int]>([])
        private let done = Locked(false)
        init(_ stream: AsyncStream<Int>) {
            Task { [values, done] in
                for await count in stream { values.withLock { $0.append(count) } }
                done.withLock { $0 = true }
            }
        }
        var all: [Int] { values.withLock { $0 } }
        var finished: Bool { done.withLock { $0 } }
    }

    static func ended(_ follower: RecordingFollower) -> Bool {
        follower.events.contains { if case .ended = $0 { true } else { false } }
    }

    /// Whether the host still answers a request for one of the story's files.
    static func serves(_ host: CoReadingHost, port: Int) async -> Bool {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/beats/start.json")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(10)) else { return false }
        _ = try? await response.body.collect(upTo: 1 << 20)
        return response.status.code == 200
    }

    /// Whether anything listens at the port (an HTTP client would retry a refused connection until its
    /// timeout; a plain connection is refused at once).
    static func listening(_ port: Int) -> Bool { (try? RawConnection(port: port)) != nil }

    @Test func afterTheOwnerQuitsTheStoryIsServedUntilTheLastFollowerLeaves() async throws {
        let folder = try HostedFolder()
        defer { folder.dir.remove() }
        let host = try await startHost(folder)
        let port = host.port
        let ann = RecordingFollower(url: host.joinURL, token: Self.token, name: "ann")
        let cy = RecordingFollower(url: host.joinURL, token: Self.token, name: "cy")
        #expect(await eventually { !ann.welcomes.isEmpty && !cy.welcomes.isEmpty })
        let counts = Counts(await host.endServingOn())
        #expect(await eventually { Self.ended(ann) && Self.ended(cy) }, "both told the owner ended it")
        // The owner is gone; the followers still connected still get the story's files.
        #expect(await Self.serves(host, port: port), "the host stopped serving with the owner")
        #expect(await eventually { counts.all.last == 2 })
        ann.stop()
        #expect(await eventually { counts.all.last == 1 })
        #expect(await Self.serves(host, port: port), "one follower is still reading")
        cy.stop()
        #expect(await eventually { counts.finished }, "the last one left: the host stops")
        #expect(counts.all.last == 0)
        #expect(await eventually { !Self.listening(port) })
        // Nobody was told to reconnect: the end is the end.
        for follower in [ann, cy] {
            #expect(!follower.events.contains { if case .reconnecting = $0 { true } else { false } })
        }
        await host.end()
    }

    @Test func theHostStopsServingWhenTheTimeIsUpAndTheFollowersStreamEnds() async throws {
        let folder = try HostedFolder()
        defer { folder.dir.remove() }
        let host = try await startHost(folder, limits: HostLimits(servingAfterEnd: .milliseconds(600)))
        let port = host.port
        let stream = FollowerConnection.connect(to: URL(string: host.joinURL)!, token: Self.token, name: "ann",
                                                backoff: ReconnectBackoff(first: .milliseconds(20)))
        let start = ContinuousClock.now
        let events: [FollowerEvent] = try await withDeadline(.seconds(60)) {
            var seen: [FollowerEvent] = []
            var ending: AsyncStream<Int>?
            for await event in stream {
                seen.append(event)
                if case .welcome = event, ending == nil { ending = await host.endServingOn() }
            }
            return seen
        }
        let elapsed = ContinuousClock.now - start
        #expect(events.contains { if case .ended(owner: "bob") = $0 { true } else { false } })
        #expect(!events.contains { if case .reconnecting = $0 { true } else { false } }, "\(events)")
        #expect(elapsed >= .milliseconds(600), "the socket stayed open while the host served on")
        #expect(await eventually { !Self.listening(port) })
        await host.end()
    }

    @Test func withNoFollowerTheHostStopsAtOnce() async throws {
        let folder = try HostedFolder()
        defer { folder.dir.remove() }
        let host = try await startHost(folder)
        let port = host.port
        var counts: [Int] = []
        for await count in await host.endServingOn() { counts.append(count) }
        #expect(counts.isEmpty)
        #expect(await eventually { !Self.listening(port) })
    }

    /// A follower's background download, then the host gone: every beat and asset comes from the disk cache.
    @Test func aFollowerFetchesTheWholePackageSoReadingOnAloneReachesEveryBeat() async throws {
        let folder = try HostFileServingTests.package()
        defer { folder.dir.remove() }
        let cache = try TemporaryDirectory(prefix: "pajama-download")
        defer { cache.remove() }
        let host = try await startHost(folder)
        let port = host.port
        let source = HTTPStorySource(baseURL: URL(string: host.joinURL)!, authorization: "Bearer \(Self.token)")
        let download = PackageDownload(source: source, disk: DiskCache(root: cache.url), storyId: "shared", version: "2")
        let report = try #require(await download.report)
        #expect(report.whole && report.files == 4, "\(report)")
        let manifest = try StoryDecoder.decodeManifest(Array(try Data(contentsOf: folder.dir.url.appendingPathComponent("story.json"))))
        await host.end()
        #expect(await eventually { !Self.listening(port) })
        // Reading on alone with the host gone: the reader's own loads find everything on disk.
        let content = StoryContentManager(manifest: manifest, source: source, diskCache: DiskCache(root: cache.url),
                                          decodeImage: { _, _ in .textArt(lines: []) }, sound: nil, preloading: false,
                                          retry: RetryPolicy(attempts: 1))
        for beat in ["start", "later"] { _ = try await content.loadBeat(beat) }
        for asset in ["assets/pic.txt", "assets/critical.txt"] { _ = try await content.loadImage(try AssetPath(validating: asset)) }
    }

    @Test func aPackageOverTheLimitIsFetchedBeatsFirstAsFarAsTheLimitGoes() async throws {
        let folder = try HostFileServingTests.package()
        defer { folder.dir.remove() }
        try Data(repeating: 7, count: 300_000).write(to: folder.dir.url.appendingPathComponent("assets/pic.txt"))
        let cache = try TemporaryDirectory(prefix: "pajama-download")
        defer { cache.remove() }
        let host = try await startHost(folder)
        let source = HTTPStorySource(baseURL: URL(string: host.joinURL)!, authorization: "Bearer \(Self.token)")
        let disk = DiskCache(root: cache.url)
        let report = try #require(await PackageDownload(source: source, disk: disk, storyId: "shared", version: "2", limit: 100_000).report)
        #expect(!report.whole && report.here == 3 && report.files == 4, "\(report)")
        for path in ["beats/start.json", "beats/later.json", "assets/critical.txt"] {
            #expect(await disk.get(storyId: "shared", version: "2", path: path) != nil, "\(path)")
        }
        #expect(await disk.get(storyId: "shared", version: "2", path: "assets/pic.txt") == nil, "over the limit")
        await host.end()
    }

    @Test func theListingNamesOnlyTheDeclaredFilesAndNeedsTheToken() async throws {
        let folder = try HostFileServingTests.package()
        defer { folder.dir.remove() }
        let host = try await startHost(folder)
        let (status, _, body) = try await HostFileServingTests.get(host, PackageListing.path)
        #expect(status == 200)
        let listing = try JSONDecoder().decode(PackageListing.self, from: Data(body.utf8))
        #expect(listing.files.map(\.path) == ["beats/later.json", "beats/start.json", "assets/critical.txt", "assets/pic.txt", "story.json"])
        var request = HTTPClientRequest(url: host.joinURL + PackageListing.path)
        request.headers.add(name: "Authorization", value: "Bearer wrong-wrong-wrong-1")
        let refused = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        #expect(refused.status.code == 401)
        await host.end()
    }
}
