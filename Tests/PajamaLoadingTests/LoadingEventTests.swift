import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// Collects events from a stream until `done` says enough.
func collect(_ stream: AsyncStream<LoadingEvent>, until done: @escaping @Sendable ([LoadingEvent]) -> Bool) async -> [LoadingEvent] {
    var events: [LoadingEvent] = []
    for await event in stream {
        events.append(event)
        if done(events) { break }
    }
    return events
}

/// The events without their durations (which a test cannot know).
func shapes(_ events: [LoadingEvent]) -> [String] {
    events.map { event in
        switch event {
        case .started(let s): "started \(s)"
        case .progress(let s, let p): "progress \(s) \(p.received)/\(p.expected.map(String.init) ?? "?")"
        case .finished(let s, let tier, _): "finished \(s) from \(tier)"
        case .failed(let s, let error): "failed \(s) \(error.kind)"
        case .preloadWindowChanged(let ids): "window \(ids.joined(separator: ","))"
        }
    }
}

@Suite struct LoadingEventTests {
    func manager(_ source: any StorySource, disk: DiskCache? = nil, preloading: Bool = false) -> StoryContentManager {
        StoryContentManager(manifest: StoryManifest(id: "s", title: "S", version: "1", startBeatId: "a"), source: source, diskCache: disk,
                            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
                            sound: nil, preloading: preloading, retry: RetryPolicy(attempts: 1))
    }

    @Test func everySubscriberSeesStartedFinishedAndFailed() async throws {
        let source = CountingSource(files: ["beats/a.json": beatJSON("a"), "assets/p.png": "pic"])
        let content = manager(source)
        let first = content.loadingEvents(), second = content.loadingEvents()
        _ = try await content.loadBeat("a")
        _ = try await content.loadBeat("a")  // from memory: no event
        _ = try await content.loadImage(path("assets/p.png"))
        _ = try? await content.loadBeat("gone")
        let expected = ["started beat a", "finished beat a from source", "started image assets/p.png",
                        "finished image assets/p.png from source", "started beat gone", "failed beat gone notFound"]
        for stream in [first, second] {
            let events = await collect(stream) { $0.count == expected.count }
            #expect(shapes(events) == expected)
        }
    }

    @Test func aDiskHitIsReportedWithItsTier() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-events-disk")
        defer { dir.remove() }
        let disk = DiskCache(root: dir.url)
        let source = CountingSource(files: ["beats/a.json": beatJSON("a")])
        _ = try await manager(source, disk: disk).loadBeat("a")
        let content = manager(source, disk: disk)
        let stream = content.loadingEvents()
        _ = try await content.loadBeat("a")
        let events = await collect(stream) { $0.count == 2 }
        #expect(shapes(events) == ["started beat a", "finished beat a from disk"])
    }

    @Test func concurrentRequestsShareOneStartedAndFinished() async throws {
        let source = GatedSource(files: ["beats/a.json": beatJSON("a")])
        let content = manager(source)
        let stream = content.loadingEvents()
        let loads = (0..<5).map { _ in Task { try await content.loadBeat("a") } }
        await source.waitUntilStarted(1)
        await source.openAll()
        for load in loads { _ = try await load.value }
        let events = await collect(stream) { $0.count == 2 }
        #expect(shapes(events) == ["started beat a", "finished beat a from source"])
        #expect(await content.metrics().sharedLoads == 4)
    }

    @Test func thePreloadWindowIsPublished() async throws {
        let source = CountingSource(files: ["beats/a.json": beatJSON("a", next: "b"), "beats/b.json": beatJSON("b")])
        let content = manager(source, preloading: true)
        let stream = content.loadingEvents()
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "p"))
        let events = await collect(stream) { if case .preloadWindowChanged = $0.last { true } else { false } }
        #expect(shapes(events).last == "window a,b")
    }

    @Test func aStreamThatEndsUnsubscribes() async {
        let hub = LoadingEventHub(bufferSize: 2)
        let reader = Task { await collect(hub.subscribe()) { $0.count == 1 } }
        while hub.subscriberCount == 0 { await Task.yield() }
        hub.publish(.preloadWindowChanged(["x"]))
        #expect(shapes(await reader.value) == ["window x"])
        #expect(hub.subscriberCount == 0)
        hub.finish()
        var after: [LoadingEvent] = []
        for await event in hub.subscribe() { after.append(event) }
        #expect(after.isEmpty)  // a finished hub gives finished streams
    }
}
