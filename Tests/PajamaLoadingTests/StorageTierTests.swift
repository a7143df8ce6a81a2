import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

@Suite struct StorageTierTests {
    static let manifest = StoryManifest(id: "s", title: "S", version: "1", startBeatId: "a")

    /// Sets the modification time of the cache entry whose payload ends with `marker`.
    func setTime(_ seconds: Int, ofEntryEndingWith marker: UInt8, in folder: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            if try Data(contentsOf: url).last == marker {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(seconds))],
                                                      ofItemAtPath: url.path)
            }
        }
    }

    @Test func diskCacheKeepsToItsCapEvictingTheLeastRecentlyUsed() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-disk-cap")
        defer { dir.remove() }
        let entry = 1000
        let disk = DiskCache(root: dir.url, maximumBytes: 3 * (entry + 64))
        for (i, name) in ["a", "b", "c"].enumerated() {
            await disk.store(storyId: "s", version: "1", path: name, bytes: [UInt8](repeating: UInt8(i + 1), count: entry))
        }
        let folder = dir.url.appendingPathComponent("s")
        try setTime(1000, ofEntryEndingWith: 1, in: folder)
        try setTime(2000, ofEntryEndingWith: 2, in: folder)
        try setTime(3000, ofEntryEndingWith: 3, in: folder)
        #expect(await disk.get(storyId: "s", version: "1", path: "a") != nil)  // a is now the most recently used
        await disk.store(storyId: "s", version: "1", path: "d", bytes: [UInt8](repeating: 4, count: entry))
        #expect(await disk.get(storyId: "s", version: "1", path: "b") == nil)
        for name in ["a", "c", "d"] { #expect(await disk.get(storyId: "s", version: "1", path: name) != nil) }
        #expect(await disk.totalBytes() <= 3 * (entry + 64))
    }

    @Test func diskCacheClearsOneStoryAndLeavesNoTemporaryFiles() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-disk-clear")
        defer { dir.remove() }
        let disk = DiskCache(root: dir.url)
        for i in 0..<50 {
            await disk.store(storyId: "one", version: nil, path: "beats/b\(i).json", bytes: Array("x\(i)".utf8))
            await disk.store(storyId: "two", version: nil, path: "beats/b\(i).json", bytes: Array("y\(i)".utf8))
        }
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.contains("tmp") }
        #expect(leftovers.isEmpty)
        await disk.clear(storyId: "one")
        #expect(await disk.get(storyId: "one", version: nil, path: "beats/b7.json") == nil)
        #expect(await disk.get(storyId: "two", version: nil, path: "beats/b7.json") == Array("y7".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("one").path))
    }

    @Test func diskEntryForAnotherKeyIsNeverReturned() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-disk-key")
        defer { dir.remove() }
        let disk = DiskCache(root: dir.url)
        await disk.store(storyId: "s", version: "1", path: "beats/a.json", bytes: Array("A".utf8))
        await disk.store(storyId: "s", version: "1", path: "beats/b.json", bytes: Array("B".utf8))
        // Put a's file in b's place, as if two keys hashed to one name: the checksum covers the key.
        let folder = dir.url.appendingPathComponent("s")
        var files: [String: URL] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            files[String(decoding: [try Data(contentsOf: url).last!], as: UTF8.self)] = url
        }
        let a = try #require(files["A"]), b = try #require(files["B"])
        try FileManager.default.removeItem(at: b)
        try FileManager.default.copyItem(at: a, to: b)
        #expect(await disk.get(storyId: "s", version: "1", path: "beats/b.json") == nil)
        #expect(await disk.corruptEntriesRemoved == 1)
        #expect(await disk.get(storyId: "s", version: "1", path: "beats/a.json") == Array("A".utf8))
    }

    @Test func beatSizeEstimateCountsEveryString() {
        let small = beat("a", lines: 1)
        let long = Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: [String(repeating: "x", count: 10_000)]))])
        let tool = Tool(name: "custom", args: ["text": .string(String(repeating: "y", count: 5_000)),
                                               "list": .array((0..<100).map { .int($0) })])
        let withTool = Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["x"]), tools: [tool])])
        #expect(BeatSize.estimate(long) >= 10_000)
        #expect(BeatSize.estimate(long) < 10_000 + 1_000)
        #expect(BeatSize.estimate(withTool) >= 5_000 + 100 * 8)
        #expect(BeatSize.estimate(small) < 1_000)
        #expect(BeatSize.estimate(small) > 0)
    }

    @Test func coordinatorCountsTiersPromotesDiskHitsAndSwitchesLayers() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-tiers")
        defer { dir.remove() }
        let disk = DiskCache(root: dir.url)
        let source = CountingSource(files: ["beats/a.json": beatJSON("a"), "beats/b.json": beatJSON("b")])
        let first = BeatStorageCoordinator(manifest: Self.manifest, source: source, memory: InMemoryBeatCache(), disk: disk)
        _ = try await first.load("a")
        _ = try await first.load("a")
        var m = await first.metrics
        #expect(m.source.hits == 1 && m.memory.hits == 1 && m.memory.misses == 1 && m.disk.misses == 1)

        // A fresh memory tier: a disk hit, promoted to memory.
        let memory = InMemoryBeatCache()
        let second = BeatStorageCoordinator(manifest: Self.manifest, source: source, memory: memory, disk: disk)
        _ = try await second.load("a")
        #expect(await memory.contains("a"))
        _ = try await second.load("a")
        m = await second.metrics
        #expect(m.disk.hits == 1 && m.memory.hits == 1 && m.sourceRequests == 0)

        // Memory off: nothing answered from or kept in memory; the disk answers.
        await second.setMemoryEnabled(false)
        #expect(await second.cached("a") == nil)
        _ = try await second.load("a")
        #expect(await second.metrics.disk.hits == 2)
        await second.setMemoryEnabled(true)

        // Disk off: b comes from the source and is not written to disk.
        await second.setDiskEnabled(false)
        _ = try await second.load("b")
        #expect(await second.metrics.sourceRequests == 1)
        #expect(await disk.get(storyId: "s", version: "1", path: "beats/b.json") == nil)
        #expect(await source.count("beats/b.json") == 1)
    }
}
