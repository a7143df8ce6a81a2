import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage

/// The one orchestrator of a story's content: beats through the storage tiers, pictures and sounds
/// through two asset stores, the preloader, criticality and the gate on critical assets.
///
/// Its memory is asked at once, from any thread, through `resident` (beats, pictures, sounds, the gate), never
/// waiting on I/O; everything else is an async load.
public actor StoryContentManager: StoryContent {
    /// The story's metadata: story.json as last read (`reload` reads it again when it changes).
    public nonisolated var manifest: StoryManifest { current.withLock { $0 } }
    private nonisolated let current: Locked<StoryManifest>
    public nonisolated let source: any StorySource
    private let storage: BeatStorageCoordinator
    private let images: AssetStore<StoryImage>
    private let sounds: AssetStore<LoadedSound>?
    private let preloader: BeatPreloader
    public let retry: RetryPolicy
    /// Runs the loads the reader waits for with `retry` (the seeds' LoadingStateManager).
    public let loading: LoadingStateManager
    /// Every loading event of this story (see `loadingEvents()`).
    public nonisolated let events: LoadingEventHub
    private let criticalityOverrides = CriticalityOverrides()
    private var recentBeats: [String] = []
    /// What is in memory, read at once from any thread (the reader's moves and "▸ ready"; see `ResidentContent`).
    private nonisolated let residentContent: ResidentStoryContent
    public nonisolated var resident: any ResidentContent { residentContent }

    /// A decoder for pictures (PajamaImage's `ImageDecoder.decode` in the app; a fake in tests).
    public typealias ImageDecoding = @Sendable (AssetPath, [UInt8]) throws(AssetLoadError) -> StoryImage

    public init(
        manifest: StoryManifest, source: any StorySource, diskCache: DiskCache?, decodeImage: @escaping ImageDecoding,
        sound: SoundClient?, memory: InMemoryBeatCache = InMemoryBeatCache(), preloadPolicy: PreloadPolicy = .standard,
        preloading: Bool = true, retry: RetryPolicy = RetryPolicy(), imageBudget: Int = 64 << 20, soundBudget: Int = 64 << 20,
        maximumConcurrentBeatLoads: Int = 3, maximumConcurrentAssetLoads: Int = 2
    ) {
        current = Locked(manifest)
        self.source = source
        self.retry = retry
        self.loading = LoadingStateManager(retry: retry)
        let events = LoadingEventHub.loading()
        self.events = events
        let storage = BeatStorageCoordinator(manifest: manifest, source: source, memory: memory, disk: diskCache, events: events)
        self.storage = storage
        let disk = source.isLocal ? nil : diskCache
        let fetch: AssetStore<StoryImage>.ProgressFetch = { path, progress throws(AssetLoadError) in
            if let disk, let bytes = await disk.get(storyId: manifest.id, version: manifest.version, path: path.value) {
                return (bytes, .disk)
            }
            do throws(StorySourceError) {
                let bytes = try await source.read(path.value, progress: progress)
                await disk?.store(storyId: manifest.id, version: manifest.version, path: path.value, bytes: bytes)
                return (bytes, .source)
            } catch {
                throw AssetLoadError(error)
            }
        }
        images = AssetStore(budget: imageBudget, progressFetch: fetch, decode: { path, bytes throws(AssetLoadError) in try decodeImage(path, bytes) },
                            cost: { $0.byteCount }, events: events, subject: { .image($0) })
        if let sound {
            sounds = AssetStore(
                budget: soundBudget, progressFetch: fetch,
                decode: { path, bytes throws(AssetLoadError) in
                    try await sound.load(SoundKey(storyId: manifest.id, storyVersion: manifest.version, path: path), bytes)
                },
                cost: { $0.byteCount }, release: { await sound.unload($0) }, events: events, subject: { .sound($0) })
        } else {
            sounds = nil
        }
        let residentContent = ResidentStoryContent(storage: storage, images: images, sounds: sounds, sound: sound,
                                              overrides: criticalityOverrides, manifest: current)
        self.residentContent = residentContent
        let assets = AssetPreloader(images: images, sounds: sounds) { residentContent.criticality(of: $0) }
        preloader = BeatPreloader(
            policy: preloadPolicy, maximumConcurrentLoads: maximumConcurrentBeatLoads,
            maximumConcurrentAssetLoads: maximumConcurrentAssetLoads, enabled: preloading, events: events,
            loadBeat: { id throws(AssetLoadError) in try await storage.load(id) },
            assetOrder: { beats in assets.order(beats) }, loadAsset: { reference, progress in await assets.load(reference, progress: progress) })
    }

    /// A stream of this story's loading events (beats and assets started, finished with their tier and
    /// duration, failed; the preload window moving). Every call returns a new, independent stream: any
    /// number of subscribers may listen. See `LoadingEventHub` for buffering.
    public nonisolated func loadingEvents() -> AsyncStream<LoadingEvent> { events.subscribe() }

    /// Reads story.json from `source` and makes a manager for it.
    /// story.json is fetched with `retry` (it is never cached: a new version must be seen at once).
    public static func open(
        source: any StorySource, diskCache: DiskCache?, decodeImage: @escaping ImageDecoding, sound: SoundClient?,
        preloading: Bool = true, memory: InMemoryBeatCache = InMemoryBeatCache(), preloadPolicy: PreloadPolicy = .standard,
        retry: RetryPolicy = RetryPolicy()
    ) async throws(AssetLoadError) -> StoryContentManager {
        let activity = LoadActivity<String>(events: nil)
        let report = activity.reporter(for: "story.json", subject: .beat("story.json"))
        let loading = LoadingStateManager(retry: retry)
        let bytes = try await loading.executeWithRetry(subject: "story.json", key: "story.json", activity: activity) { () throws(AssetLoadError) -> [UInt8] in
            do throws(StorySourceError) { return try await source.read("story.json", progress: report) } catch { throw AssetLoadError(error) }
        }
        do {
            let manifest = try StoryDecoder.decodeManifest(bytes)
            return StoryContentManager(manifest: manifest, source: source, diskCache: diskCache, decodeImage: decodeImage,
                                       sound: sound, memory: memory, preloadPolicy: preloadPolicy, preloading: preloading, retry: retry)
        } catch {
            throw AssetLoadError(.invalidFormat, subject: "story.json", detail: error.description)
        }
    }

    // MARK: Changes (the author's live preview)

    /// The story's files changed (`pajama read FOLDER --watch`): what `change` names is dropped from every
    /// cache (beats from memory; pictures decoded and sounds uploaded, which the sound server lets go), the
    /// preloader plans its window again, and story.json, when it changed, is read again (the title, the
    /// start beat, criticality). Returns the problem when the new story.json cannot be used: the old one
    /// is kept.
    public func reload(_ change: StoryChange) async -> AssetLoadError? {
        var problem: AssetLoadError?
        if change.manifest {
            do throws(AssetLoadError) {
                let manifest = try await Self.readManifest(from: source)
                current.withLock { $0 = manifest }
            } catch {
                problem = error
            }
        }
        if change.everything {
            await storage.forgetAll()
            await images.clear()
            await sounds?.clear()
        } else {
            await storage.forget(change.beats)
            for path in change.assets {
                await images.forget(path)
                await sounds?.forget(path)
            }
        }
        await preloader.storyChanged(beats: change.everything ? nil : change.beats, assets: change.everything ? nil : change.assets)
        return problem
    }

    /// story.json from `source`, read once (a local folder: no retries), decoded.
    private static func readManifest(from source: any StorySource) async throws(AssetLoadError) -> StoryManifest {
        let bytes: [UInt8]
        do throws(StorySourceError) { bytes = try await source.read("story.json") } catch { throw AssetLoadError(error) }
        do {
            return try StoryDecoder.decodeManifest(bytes)
        } catch {
            throw AssetLoadError(.invalidFormat, subject: "story.json", detail: error.description)
        }
    }

    // MARK: Beats

    public func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        let storage = self.storage
        return try await loading.executeWithRetry(subject: "beat \(id)", key: id, activity: storage.activity) { () throws(AssetLoadError) -> Beat in
            try await storage.load(id)
        }
    }

    // MARK: Assets

    public func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage {
        let images = self.images
        return try await loading.executeWithRetry(subject: path.value, key: path, activity: images.activity) { () throws(AssetLoadError) -> StoryImage in
            try await images.load(path)
        }
    }

    public func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound {
        guard let sounds else { throw AssetLoadError(.soundOff, subject: path.value, detail: "sound is off") }
        return try await loading.executeWithRetry(subject: path.value, key: path, activity: sounds.activity) { () throws(AssetLoadError) -> LoadedSound in
            try await sounds.load(path)
        }
    }

    // MARK: Criticality

    /// The criticality of one use of an asset: run-time override, else story.json, else the format's default.
    public func criticality(of reference: AssetReference) -> Criticality { residentContent.criticality(of: reference) }

    /// Overrides the criticality of every use of `path` (nil removes the override); the gate and the
    /// preloader use it from the next check or window on.
    package func setCriticality(_ level: Criticality?, for path: AssetPath) { criticalityOverrides.set(level, for: path) }

    /// Loads the critical assets of the page (sounds only while a sound server is there).
    public func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {
        guard let page = beat.page(withId: location.pageId) else { return }
        for ref in page.assetReferences(beatId: beat.id) where criticality(of: ref) == .critical {
            if ref.role.isSound {
                if residentContent.soundIsOn { _ = try await loadSound(ref.path) }
            } else {
                _ = try await loadImage(ref.path)
            }
        }
    }

    // MARK: Preloading and metrics

    public func readerMoved(to location: StoryLocation) async {
        if recentBeats.last != location.beatId { recentBeats.append(location.beatId) }
        if recentBeats.count > 16 { recentBeats.removeFirst(recentBeats.count - 16) }
        await preloader.readerMoved(to: location.beatId, recent: recentBeats)
    }

    /// The reading is over: preloading stops for good (its window's work and loads cancelled), so nothing
    /// is fetched on the reader's behalf after the session ends. Loads the reader itself asked for are not
    /// touched. Called by the content's owner (`ReaderApp.shutdown`, the bench's readers).
    public func close() async { await preloader.stop() }

    /// Removes this story's sounds from the sound server's sample cache (the reader leaves the story).
    public func clearSounds() async { await sounds?.clear() }

    /// The beats the preloader last chose to keep loaded around the reader, nearest first (`--stats`).
    public var preloadWindow: [String] { get async { await preloader.lastWindow } }

    public func metrics() async -> StorageMetrics { await storage.metrics }

    // MARK: For tests and the bench

    /// Waits until the preloader's current window has no work left (its loads done or cancelled).
    package func settlePreloads() async { await preloader.settle() }

    /// The link as the preloader measured it (the window's reach by time).
    package var linkMeasure: LinkMeasure { get async { await preloader.measure } }

    /// The assets the preloader is loading now, and those of them for ending beats.
    package var preloadingAssets: (all: Set<AssetPath>, ending: Set<AssetPath>) { get async { await preloader.loadingAssets } }

    /// Drops a picture from memory (as an eviction would).
    package func forgetImage(_ path: AssetPath) async { await images.forget(path) }

    /// Turns the memory tier of beats off or on (off: every beat is read from disk or the source).
    package func setBeatMemoryEnabled(_ enabled: Bool) async { await storage.setMemoryEnabled(enabled) }

    // MARK: Made beats

    /// Hands a saved origin to a source that makes its beats (ink); when the beats it made before no longer
    /// hold (another seed, a state given), they are forgotten. Nothing to do for a story package.
    public func restore(_ origin: BeatOrigin) async -> OriginRestore {
        guard source.makesBeats else { return .restored }
        let outcome = await source.restore(origin)
        if outcome == .restoredAnew { await storage.memory?.clear() }
        return outcome
    }
}
