/// The sound layer as the reader sees it: a value of `@Sendable` closures, so the engine is injected
/// (`.live(engine)` in PajamaAudio decodes with libsndfile and uploads to PulseAudio; unit tests use a
/// recording value from PajamaTestSupport) and nothing depends on a protocol's conformers.
public struct SoundClient: Sendable {
    /// Decodes the bytes and makes the sound playable. Returns only once it is confirmed playable
    /// (uploaded to the server's sample cache, or held for the fallback stream).
    public var load: @Sendable (SoundKey, [UInt8]) async throws(AssetLoadError) -> LoadedSound
    /// Plays a loaded sound: one request, no decoding; overlaps with anything already playing.
    /// Returns false when the sound could not be played (no server, or the server lost it).
    public var play: @Sendable (LoadedSound) -> Bool
    /// Forgets the sound (removes it from the server's sample cache).
    public var unload: @Sendable (LoadedSound) async -> Void
    /// The current state, for the status line.
    public var currentState: @Sendable () -> SoundState
    /// Volume in percent (0...100).
    public var getVolume: @Sendable () -> Int
    public var setVolume: @Sendable (Int) -> Void
    public var getMuted: @Sendable () -> Bool
    public var setMuted: @Sendable (Bool) -> Void
    /// The state each time it changes on its own (the server lost, a reconnect), so the status line is
    /// redrawn without waiting for a key. Every call returns a new stream.
    public var stateChanges: @Sendable () -> AsyncStream<SoundState>
    /// Loops a loaded sound as the background sound, under the others, across pages (kept when it is the one
    /// playing, else in place of it); false when it could not start. See docs/sound.md, "Background sound".
    public var startLoop: @Sendable (LoadedSound) -> Bool
    /// Stops the background sound.
    public var stopLoop: @Sendable () -> Void

    public init(
        load: @escaping @Sendable (SoundKey, [UInt8]) async throws(AssetLoadError) -> LoadedSound,
        play: @escaping @Sendable (LoadedSound) -> Bool,
        unload: @escaping @Sendable (LoadedSound) async -> Void,
        currentState: @escaping @Sendable () -> SoundState,
        getVolume: @escaping @Sendable () -> Int, setVolume: @escaping @Sendable (Int) -> Void,
        getMuted: @escaping @Sendable () -> Bool, setMuted: @escaping @Sendable (Bool) -> Void,
        stateChanges: @escaping @Sendable () -> AsyncStream<SoundState> = { AsyncStream { $0.finish() } },
        startLoop: @escaping @Sendable (LoadedSound) -> Bool = { _ in false },
        stopLoop: @escaping @Sendable () -> Void = {}
    ) {
        self.startLoop = startLoop
        self.stopLoop = stopLoop
        self.load = load
        self.play = play
        self.unload = unload
        self.currentState = currentState
        self.getVolume = getVolume
        self.setVolume = setVolume
        self.getMuted = getMuted
        self.setMuted = setMuted
        self.stateChanges = stateChanges
    }

    /// The current state, for the status line.
    public var state: SoundState { currentState() }

    /// Volume in percent (0...100); setting it goes to the engine (which clamps and remembers it).
    public var volume: Int {
        get { getVolume() }
        nonmutating set { setVolume(newValue) }
    }

    public var isMuted: Bool {
        get { getMuted() }
        nonmutating set { setMuted(newValue) }
    }
}
