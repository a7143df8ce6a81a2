import Foundation

/// Gets beats efficiently: memory, then disk (remote stories only), then the source. Promotes disk hits
/// to memory, shares an in-flight load between all callers, and counts hits, misses and latency per tier.
public actor BeatStorageCoordinator {
    public let manifest: StoryManifest
    public let source: any StorySource
    public let memory: InMemoryBeatCache?
    public let disk: DiskCache?
    private var inFlight: [String: Task<Beat, any Error>] = [:]
    public private(set) var metrics = StorageMetrics()

    /// Pass nil for a tier to switch it off. The disk tier is never used for local folders.
    public init(manifest: StoryManifest, source: any StorySource, memory: InMemoryBeatCache? = InMemoryBeatCache(), disk: DiskCache?) {
        self.manifest = manifest
        self.source = source
        self.memory = memory
        self.disk = source.isLocal ? nil : disk
    }

    /// The beat if it is in memory (no I/O).
    public func cached(_ id: String) async -> Beat? {
        await memory?.get(id)
    }

    /// The beat from the first tier that has it.
    public func load(_ id: String) async throws(AssetLoadError) -> Beat {
        let start = Date()
        if let beat = await memory?.get(id) {
            metrics.memory.hits += 1
            metrics.memory.hitSeconds += Date().timeIntervalSince(start)
            return beat
        }
        metrics.memory.misses += 1
        if let task = inFlight[id] {
            metrics.sharedLoads += 1
            return try await Self.value(of: task, id: id)
        }
        let task = Task { try await self.fetch(id) }
        inFlight[id] = task
        defer { inFlight[id] = nil }
        return try await Self.value(of: task, id: id)
    }

    private static func value(of task: Task<Beat, any Error>, id: String) async throws(AssetLoadError) -> Beat {
        do {
            return try await task.value
        } catch let error as AssetLoadError {
            throw error
        } catch {
            throw AssetLoadError(.cancelled, subject: "beat \(id)")
        }
    }

    private func fetch(_ id: String) async throws -> Beat {
        let path = "beats/\(id).json"
        guard StoryManifest.isValidId(id) else { throw AssetLoadError(.invalidFormat, subject: "beat \(id)", detail: "invalid beat id") }
        if let disk {
            let start = Date()
            if let bytes = await disk.get(storyId: manifest.id, version: manifest.version, path: path),
                let beat = try? StoryDecoder.decodeBeat(bytes, file: path, expectedId: id)
            {
                metrics.disk.hits += 1
                metrics.disk.hitSeconds += Date().timeIntervalSince(start)
                await memory?.store(beat)
                return beat
            }
            metrics.disk.misses += 1
        }
        let start = Date()
        metrics.sourceRequests += 1
        let bytes: [UInt8]
        do {
            bytes = try await source.read(path)
        } catch {
            metrics.source.misses += 1
            if case .notFound = error { throw AssetLoadError(.notFound, subject: "beat \(id)", detail: path) }
            throw AssetLoadError(error)
        }
        let beat: Beat
        do {
            beat = try StoryDecoder.decodeBeat(bytes, file: path, expectedId: id)
        } catch {
            metrics.source.misses += 1
            throw AssetLoadError(.invalidFormat, subject: "beat \(id)", detail: error.description)
        }
        metrics.source.hits += 1
        metrics.source.hitSeconds += Date().timeIntervalSince(start)
        await memory?.store(beat)
        await disk?.store(storyId: manifest.id, version: manifest.version, path: path, bytes: bytes)
        return beat
    }
}
