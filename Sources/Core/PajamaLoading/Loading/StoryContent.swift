import PajamaModel

/// What the reader needs from the loading engine, as a protocol so navigation is tested with fakes: one
/// synchronous memory query (`resident`) and async loads.
///
/// `StoryContentManager` is the live implementation (memory -> disk -> source, preloading, gating);
/// `DirectStoryContent` reads a local story straight from its source (`pajama play`).
///
/// The loads run on the caller's executor (`nonisolated(nonsending)`): a content that needs no actor of its own
/// (`DirectStoryContent`) answers the reader without leaving the main actor, and an actor's content hops to it
/// as it always did.
public protocol StoryContent: Sendable {
    /// The story's metadata.
    var manifest: StoryManifest { get }
    /// The beat, loading it through the cache tiers if needed.
    nonisolated(nonsending) func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat
    /// Loads every critical asset of the page at `location`; returns when entry is allowed.
    nonisolated(nonsending) func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError)
    /// Loads an image (de-duplicated with preloads).
    nonisolated(nonsending) func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage
    /// Loads a sound (decoded and confirmed by the sound engine).
    nonisolated(nonsending) func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound
    /// Tells the preloader where the reader is now, so it slides its window.
    nonisolated(nonsending) func readerMoved(to location: StoryLocation) async
    /// Makes the beat a saved `origin` leads to known again before a resumed reading enters it (an ink story;
    /// nothing to do for a story package).
    nonisolated(nonsending) func restore(_ origin: BeatOrigin) async -> OriginRestore
    /// What the content has in memory (beats, pictures, sounds, and whether a page's critical assets are
    /// there), read at once without a hop to its actor: the one synchronous question (see `ResidentContent`).
    var resident: any ResidentContent { get }
    /// Whether the content is told where the reader moves (`readerMoved`): a content that preloads. False for one
    /// that only answers what is asked, so the reader does not hand it every move.
    var followsReader: Bool { get }
}

extension StoryContent {
    public nonisolated(nonsending) func restore(_ origin: BeatOrigin) async -> OriginRestore { .restored }

    public var followsReader: Bool { true }
}
