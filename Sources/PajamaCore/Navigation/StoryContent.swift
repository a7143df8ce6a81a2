/// What the reader needs from the loading engine, as a protocol so navigation is tested with fakes.
///
/// `StoryContentManager` is the live implementation (memory -> disk -> source, preloading, gating).
public protocol StoryContent: Sendable {
    /// The story's metadata.
    var manifest: StoryManifest { get }
    /// The beat if it is already in memory; never waits on I/O.
    func cachedBeat(_ id: String) async -> Beat?
    /// The beat, loading it through the cache tiers if needed.
    func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat
    /// True when every critical asset of the page at `location` is loaded (entry need not wait); never
    /// waits on I/O. Uses the same criticality (and run-time overrides) as `loadCriticalAssets`.
    func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) async -> Bool
    /// Loads every critical asset of the page at `location`; returns when entry is allowed.
    func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError)
    /// A loaded image, or nil when it is not (yet) loaded; never waits on I/O.
    func cachedImage(_ path: AssetPath) async -> StoryImage?
    /// Loads an image (de-duplicated with preloads).
    func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage
    /// A loaded sound, or nil; never waits on I/O.
    func cachedSound(_ path: AssetPath) async -> LoadedSound?
    /// Loads a sound (decoded and confirmed by the sound engine).
    func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound
    /// Tells the preloader where the reader is now, so it slides its window.
    func readerMoved(to location: StoryLocation) async
    /// Makes the beat a saved `origin` leads to known again before a resumed reading enters it (an ink story;
    /// nothing to do for a story package).
    func restore(_ origin: BeatOrigin) async -> OriginRestore
    /// What the content has in memory, readable at once without a hop to its actor (see `ResidentContent`);
    /// nil when it has no such view (then the reader asks `cachedBeat` and `criticalAssetsLoaded`).
    var resident: (any ResidentContent)? { get }
}

extension StoryContent {
    public func restore(_ origin: BeatOrigin) async -> OriginRestore { .restored }
    public var resident: (any ResidentContent)? { nil }
}
