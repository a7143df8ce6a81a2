import Foundation
import PajamaHTTP
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// The fault matrix's disk-cache rows (issue 11, section 4), with the real `DiskCache` on disk and beats
/// served by the real test server: an entry corrupted in every way, the cache deleted while a load is
/// in progress, a cache that cannot be written, and a full (size-capped) cache. Reading always goes on
/// from the network; nothing corrupt is ever returned.
@Suite(.serialized) struct DiskCacheFaultTests {
    static let manifest = StoryManifest(id: "served", title: "Served", version: "1", startBeatId: "start")

    struct Served {
        let story: ServedStory
        let server: TestHTTPServer
        let cache: TemporaryDirectory
        var source: HTTPStorySource { HTTPStorySource(baseURL: URL(string: server.baseURL)!) }
        func close() {
            server.stopSoon()
            story.dir.remove()
            cache.remove()
        }
    }

    func serve(_ options: TestHTTPServer.Options = .init()) async throws -> Served {
        let story = try ServedStory()
        return Served(story: story, server: try await TestHTTPServer(root: story.url, options: options),
                      cache: try TemporaryDirectory(prefix: "pajama-cache-fault"))
    }

    /// The one entry file under the story's cache folder.
    func entryFile(_ root: URL) throws -> URL {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: root.path + "/served").first)
        return root.appendingPathComponent("served/" + name)
    }

    enum Damage: String, CaseIterable, CustomStringConvertible, Sendable {
        case emptied, truncatedToTheHeader, halfThePayload, oneBitFlipped, wrongMagic, bytesAppended, aFolderInstead, aFIFOInstead
        var description: String { rawValue }

        func apply(to url: URL) throws {
            var bytes = try Data(contentsOf: url)
            switch self {
            case .emptied: bytes = Data()
            case .truncatedToTheHeader: bytes = bytes.prefix(20)
            case .halfThePayload: bytes = bytes.prefix(20 + (bytes.count - 20) / 2)
            case .oneBitFlipped: bytes[bytes.count - 5] ^= 0x10
            case .wrongMagic: bytes[0] = UInt8(ascii: "X")
            case .bytesAppended: bytes += Data("tail".utf8)
            case .aFolderInstead, .aFIFOInstead:
                try FileManager.default.removeItem(at: url)
                if self == .aFolderInstead {
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                } else {
                    #expect(mkfifo(url.path, 0o600) == 0)
                }
                return
            }
            try bytes.write(to: url)
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedEntryIsAMissAndTheBeatComesFromTheNetworkAgain(_ damage: Damage) async throws {
        let served = try await serve()
        defer { served.close() }
        let disk = DiskCache(root: served.cache.url)
        let first = BeatStorageCoordinator(manifest: Self.manifest, source: served.source, memory: nil, disk: disk)
        let beat = try await first.load("left")
        #expect(served.server.requestCount(for: "beats/left.json") == 1)
        try damage.apply(to: try entryFile(served.cache.url))
        let second = BeatStorageCoordinator(manifest: Self.manifest, source: served.source, memory: nil, disk: disk)
        #expect(try await second.load("left") == beat)
        #expect(served.server.requestCount(for: "beats/left.json") == 2, "the damaged entry was not used")
        // The entry is whole again: the next load is a disk hit.
        #expect(try await second.load("left") == beat)
        #expect(served.server.requestCount(for: "beats/left.json") == 2)
    }

    @Test func theCacheFolderDeletedWhileALoadIsInProgressIsRebuilt() async throws {
        // A slow link (the whole answer is logged as it begins), so the load is in progress, receiving,
        // when the folder goes.
        let served = try await serve(TestHTTPServer.Options(bytesPerSecond: 40))
        defer { served.close() }
        let disk = DiskCache(root: served.cache.url)
        let coordinator = BeatStorageCoordinator(manifest: Self.manifest, source: served.source, memory: nil, disk: disk)
        _ = try await coordinator.load("left")  // the cache folder now exists with one entry
        let loading = Task { try await coordinator.load("right") }
        #expect(await served.server.waitForRequest("beats/right.json"))
        try FileManager.default.removeItem(at: served.cache.url)
        let right = try await loading.value
        #expect(right.id == "right")
        // The deleted entry is a miss, the new one was stored in a folder made again.
        #expect(try await coordinator.load("left").id == "left")
        #expect(served.server.requestCount(for: "beats/left.json") == 2)
        #expect(try await coordinator.load("right").id == "right")
        #expect(served.server.requestCount(for: "beats/right.json") == 1, "the beat loaded during the deletion was cached")
    }

    @Test func aCacheThatCannotBeWrittenOnlyCostsTheNetworkAgain() async throws {
        let served = try await serve()
        defer { served.close() }
        let blocked = served.cache.url.appendingPathComponent("not-a-folder")
        try Data("a file where the cache folder should be".utf8).write(to: blocked)
        let coordinator = BeatStorageCoordinator(manifest: Self.manifest, source: served.source, memory: nil, disk: DiskCache(root: blocked))
        #expect(try await coordinator.load("left").id == "left")
        #expect(try await coordinator.load("left").id == "left")
        #expect(served.server.requestCount(for: "beats/left.json") == 2)
    }

    @Test func aFullCacheDropsTheLeastRecentlyUsedEntriesAndStaysUnderItsCap() async throws {
        let served = try await serve()
        defer { served.close() }
        let cap = 300  // room for about two beats with their headers
        let disk = DiskCache(root: served.cache.url, maximumBytes: cap)
        let coordinator = BeatStorageCoordinator(manifest: Self.manifest, source: served.source, memory: nil, disk: disk)
        for id in ["start", "left", "right", "end", "left", "start"] {
            #expect(try await coordinator.load(id).id == id)
            #expect(await disk.totalBytes() <= cap)
        }
        var onDisk = 0
        let enumerator = FileManager.default.enumerator(atPath: served.cache.path)
        while let name = enumerator?.nextObject() as? String {
            var info = stat()
            if stat(served.cache.path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { onDisk += Int(info.st_size) }
        }
        #expect(onDisk <= cap)
    }
}
