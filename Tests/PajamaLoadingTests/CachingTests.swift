import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// A source that counts reads and can fail (a missing file).
actor CountingSource: StorySource {
    nonisolated let location = "fake"
    nonisolated let isLocal: Bool
    var files: [String: [UInt8]]
    private(set) var reads: [String: Int] = [:]

    init(files: [String: String], isLocal: Bool = false) {
        self.files = files.mapValues { Array($0.utf8) }
        self.isLocal = isLocal
    }

    func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        reads[path, default: 0] += 1
        guard let bytes = files[path] else { throw .notFound(path: path) }
        return bytes
    }

    func count(_ path: String) -> Int { reads[path] ?? 0 }
}

@Suite struct CachingTests {
    @Test func memoryCacheEvictsLeastRecentlyUsedByCount() async {
        let cache = InMemoryBeatCache(maximumBytes: 1 << 30, maximumCount: 3)
        for id in ["a", "b", "c"] { await cache.store(beat(id)) }
        _ = await cache.get("a")
        await cache.store(beat("d"))
        #expect(await cache.contains("a"))
        #expect(await !cache.contains("b"))
        #expect(await cache.count == 3)
    }

    @Test func memoryCacheEvictsByBytes() async {
        let size = BeatSize.estimate(beat("x", lines: 50))
        let cache = InMemoryBeatCache(maximumBytes: size * 2 + size / 2, maximumCount: 100)
        for id in ["a", "b", "c"] { await cache.store(beat(id, lines: 50)) }
        #expect(await cache.count == 2)
        #expect(await cache.totalBytes <= size * 2 + size / 2)
        #expect(await !cache.contains("a"))
    }

    @Test func concurrentLoadsShareOneFetch() async throws {
        // The read is held at a gate until all ten loads have asked: none can finish early and turn the
        // later ones into memory hits, however the tasks are scheduled.
        let source = GatedSource(files: ["beats/a.json": beatJSON("a")])
        let manifest = StoryManifest(id: "s", title: "S", startBeatId: "a")
        let coordinator = BeatStorageCoordinator(manifest: manifest, source: source, disk: nil)
        try await withThrowingTaskGroup(of: Beat.self) { group in
            for _ in 0..<10 { group.addTask { try await coordinator.load("a") } }
            await source.waitUntilStarted(1)
            _ = await eventually { await coordinator.metrics.sharedLoads >= 9 }
            await source.openAll()
            for try await b in group { #expect(b.id == "a") }
        }
        #expect(await source.started == ["beats/a.json"])
        #expect(await coordinator.metrics.sharedLoads == 9)
    }

    @Test func diskCorruptionIsDeletedAndRefetched() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-disk")
        defer { dir.remove() }
        let disk = DiskCache(root: dir.url)
        await disk.store(storyId: "s", version: "1", path: "beats/a.json", bytes: Array(beatJSON("a").utf8))
        #expect(await disk.get(storyId: "s", version: "1", path: "beats/a.json") != nil)
        #expect(await disk.get(storyId: "s", version: "2", path: "beats/a.json") == nil)  // a new version never sees old entries
        let file = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/s").first!
        let url = dir.url.appendingPathComponent("s/" + file)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 3] ^= 0xFF
        try bytes.write(to: url)
        #expect(await disk.get(storyId: "s", version: "1", path: "beats/a.json") == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // Through the coordinator: the corrupt entry is a miss and the source is asked again.
        let source = CountingSource(files: ["beats/a.json": beatJSON("a")])
        let coordinator = BeatStorageCoordinator(
            manifest: StoryManifest(id: "s", title: "S", version: "1", startBeatId: "a"), source: source, memory: nil, disk: disk)
        _ = try await coordinator.load("a")
        #expect(await source.count("beats/a.json") == 1)
        _ = try await coordinator.load("a")
        #expect(await source.count("beats/a.json") == 1)  // now a disk hit
        #expect(await coordinator.metrics.disk.hits == 1)
    }

    @Test func preloaderLoadsThePathAheadAndEveryTargetOfTheNextChoiceButNothingPastThem() async throws {
        var files: [String: String] = [:]
        // a -> b -> c -> d -> e -> f -> g -> h (a chain), and a choice at b to x.
        let chain = ["a", "b", "c", "d", "e", "f", "g", "h"]
        for (i, id) in chain.enumerated() { files["beats/\(id).json"] = beatJSON(id, next: i + 1 < chain.count ? chain[i + 1] : nil) }
        files["beats/b.json"] = """
        {"id":"b","pages":[{"id":"q","type":"choice","choices":[{"text":"c","targetBeatId":"c"},{"text":"x","targetBeatId":"x"}]}]}
        """
        files["beats/x.json"] = beatJSON("x")
        let source = CountingSource(files: files)
        let manifest = StoryManifest(id: "s", title: "S", startBeatId: "a")
        let content = StoryContentManager(manifest: manifest, source: source, diskCache: nil,
                                          decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: nil)
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "p"))
        await content.settlePreloads()
        let window = await content.preloadWindow
        #expect(window == ["a", "b", "c", "x"])
        #expect(content.resident.beat("x") != nil)
        // Past the choice, d is needed only if the reader picks c: it is fetched once they have.
        #expect(content.resident.beat("d") == nil)
        await content.readerMoved(to: StoryLocation(beatId: "b", pageId: "q"))
        await content.readerMoved(to: StoryLocation(beatId: "c", pageId: "p"))
        await content.settlePreloads()
        #expect(await content.preloadWindow == ["c", "d", "e", "f", "g", "h", "b", "a"])
        #expect(await source.count("beats/x.json") == 1)
    }
}
