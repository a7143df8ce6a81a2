import PajamaModel

/// Gets beats efficiently: memory, then disk (remote stories only), then the source. Promotes disk hits
/// to memory, shares an in-flight load between all callers, and counts hits, misses and latency per tier.
///
/// A tier can be left out (pass nil) or switched off and on at run time (`setMemoryEnabled`,
/// `setDiskEnabled`): a switched-off tier is neither read nor written.
public actor BeatStorageCoordinator {
    public let manifest: StoryManifest
    public let source: any StorySource
    public let memory: InMemoryBeatCache?
    public let disk: DiskCache?
    /// Where loads that leave memory are announced (nil: nowhere).
    public nonisolated let events: LoadingEventHub?
    /// What beat loads have received so far, per beat id (the retry policy's progress timeout watches it).
    public nonisolated let activity: LoadActivity<String>
    /// Whether the memory tier is on (behind a lock: `resident(_:)` reads it from any thread).
    public var isMemoryEnabled: Bool { memoryEnabled.withLock { $0 } }
    private nonisolated let memoryEnabled = Locked(true)
    public private(set) var isDiskEnabled = true
    private var inFlight = InFlightLoads<String, Beat>()
    public private(set) var metrics = StorageMetrics()

    /// Pass nil for a tier to leave it out. The disk tier is never used for local folders, nor for a source
    /// that makes its beats (`StorySource.makesBeats`).
    public init(manifest: StoryManifest, source: any StorySource, memory: InMemoryBeatCache? = InMemoryBeatCache(), disk: DiskCache?,
                events: LoadingEventHub? = nil) {
        self.manifest = manifest
        self.source = source
        self.memory = memory
        self.disk = source.isLocal || source.makesBeats ? nil : disk
        self.events = events
        self.activity = LoadActivity(events: events)
    }

    /// Switches the memory tier off (nothing read from or stored in it) or back on.
    public func setMemoryEnabled(_ enabled: Bool) { memoryEnabled.withLock { $0 = enabled } }

    /// Switches the disk tier off (nothing read from or stored in it) or back on.
    public func setDiskEnabled(_ enabled: Bool) { isDiskEnabled = enabled }

    private var activeMemory: InMemoryBeatCache? { isMemoryEnabled ? memory : nil }
    private var activeDisk: DiskCache? { isDiskEnabled ? disk : nil }

    /// Drops the beats `ids` from memory (their files changed): the next load reads them again. A load under
    /// way of one of them is no longer joined, so nobody gets what it read before the change.
    public func forget(_ ids: Set<String>) async {
        for id in ids {
            await memory?.remove(id)
            inFlight.forget(id)
        }
    }

    /// Drops every beat from memory (the story's files changed, and which ones is not known).
    public func forgetAll() async {
        await memory?.clear()
        inFlight.forgetAll()
    }

    /// The beat if it is in memory (no I/O).
    public func cached(_ id: String) async -> Beat? {
        await activeMemory?.get(id)
    }

    /// `cached`, at once and from any thread, without a hop to this actor or the memory's (not counted as a
    /// use of the beat: see `InMemoryBeatCache.resident`).
    public nonisolated func resident(_ id: String) -> Beat? {
        guard memoryEnabled.withLock({ $0 }) else { return nil }
        return memory?.resident(id)
    }

    /// The beat from the first tier that has it.
    public func load(_ id: String) async throws(AssetLoadError) -> Beat {
        if let memory = activeMemory {
            let start = ContinuousClock.now
            if let beat = await memory.get(id) {
                metrics.memory.hits += 1
                metrics.memory.hitSeconds += (ContinuousClock.now - start).seconds
                return beat
            }
            metrics.memory.misses += 1
        }
        if let running = inFlight.joinable(id) {
            metrics.sharedLoads += 1
            return try await running.value()
        }
        let load = inFlight.start(id, subject: "beat \(id)") { token throws(AssetLoadError) -> Beat in
            do throws(AssetLoadError) {
                let beat = try await self.fetchAnnounced(id)
                await self.ended(id, token: token)
                return beat
            } catch {
                await self.ended(id, token: token)
                throw error
            }
        }
        return try await load.value()
    }

    /// Forgets a finished load (unless a newer one for the same beat replaced it).
    private func ended(_ id: String, token: Int) {
        inFlight.finished(id, token: token)
    }

    private func fetchAnnounced(_ id: String) async throws(AssetLoadError) -> Beat {
        events?.publish(.started(.beat(id)))
        let start = ContinuousClock.now
        do {
            let (beat, tier) = try await fetch(id)
            events?.publish(.finished(.beat(id), tier: tier, duration: ContinuousClock.now - start))
            return beat
        } catch {
            events?.publish(.failed(.beat(id), error))
            throw error
        }
    }

    private func fetch(_ id: String) async throws(AssetLoadError) -> (Beat, LoadTier) {
        let path = SourceBeat.path(of: id)
        try SourceBeat.checkId(id)
        if let disk = activeDisk {
            let start = ContinuousClock.now
            if let bytes = await disk.get(storyId: manifest.id, version: manifest.version, path: path),
                let beat = try? SourceBeat.decoded(bytes, id: id)
            {
                metrics.disk.hits += 1
                metrics.disk.hitSeconds += (ContinuousClock.now - start).seconds
                await activeMemory?.store(beat)
                return (beat, .disk)
            }
            metrics.disk.misses += 1
        }
        let start = ContinuousClock.now
        metrics.sourceRequests += 1
        if source.makesBeats {
            let made: Beat?
            do {
                made = try await source.madeBeat(id)
            } catch {
                metrics.source.misses += 1
                throw SourceBeat.error(error, id: id)
            }
            if let made {
                let beat: Beat
                do {
                    beat = try SourceBeat.checked(made, id: id)
                } catch {
                    metrics.source.misses += 1
                    throw error
                }
                metrics.source.hits += 1
                metrics.source.hitSeconds += (ContinuousClock.now - start).seconds
                await activeMemory?.store(beat)
                return (beat, .source)
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try await source.read(path, progress: activity.reporter(for: id, subject: .beat(id)))
        } catch {
            metrics.source.misses += 1
            throw SourceBeat.error(error, id: id)
        }
        let beat: Beat
        do {
            beat = try SourceBeat.decoded(bytes, id: id)
        } catch {
            metrics.source.misses += 1
            throw error
        }
        metrics.source.hits += 1
        metrics.source.hitSeconds += (ContinuousClock.now - start).seconds
        await activeMemory?.store(beat)
        await activeDisk?.store(storyId: manifest.id, version: manifest.version, path: path, bytes: bytes)
        return (beat, .source)
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
