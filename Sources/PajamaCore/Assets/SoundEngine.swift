/// Names a sound uniquely across stories and story versions (also its sample name on the server).
public struct SoundKey: Hashable, Sendable, CustomStringConvertible {
    public var storyId: String
    public var storyVersion: String?
    public var path: AssetPath

    public init(storyId: String, storyVersion: String?, path: AssetPath) {
        self.storyId = storyId
        self.storyVersion = storyVersion
        self.path = path
    }

    public var description: String { "\(storyId)@\(storyVersion ?? "-"):\(path.value)" }
}

/// A sound the engine holds ready to play (for PulseAudio: uploaded and confirmed by the server).
public struct LoadedSound: Hashable, Sendable {
    public var key: SoundKey
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int
    /// Bytes of PCM the engine holds for it (for cache budgets).
    public var byteCount: Int

    public init(key: SoundKey, frames: Int, sampleRate: Int, channels: Int, byteCount: Int) {
        self.key = key
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.byteCount = byteCount
    }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// What the status line says about sound.
public enum SoundState: Hashable, Sendable {
    /// Playing through the server's sample cache.
    case sampleCache
    /// Playing through the fallback stream (no sample cache on this server).
    case stream
    /// Sound is on but the reader muted it.
    case muted
    /// No sound server (the reader goes on silently); the reason is for `pajama doctor` and the notice.
    case off(reason: String)
    /// Sound was turned off by the reader (`--no-sound`).
    case disabled
}

/// The sound layer as the engine sees it. The live one (PajamaAudio) decodes with libsndfile and
/// uploads to PulseAudio; unit tests use a fake.
public protocol SoundEngine: AnyObject, Sendable {
    /// Decodes `bytes` and makes the sound playable. Returns only once it is confirmed playable
    /// (uploaded to the server's sample cache, or held for the fallback stream).
    func load(_ key: SoundKey, bytes: [UInt8]) async throws(AssetLoadError) -> LoadedSound
    /// Plays a loaded sound: one request, no decoding; overlaps with anything already playing.
    /// Returns false when the sound could not be played (no server, or the server lost it).
    @discardableResult func play(_ sound: LoadedSound) -> Bool
    /// Forgets the sound (removes it from the server's sample cache).
    func unload(_ sound: LoadedSound) async
    /// The current state, for the status line.
    var state: SoundState { get }
    /// Volume in percent (0...100).
    var volume: Int { get set }
    var isMuted: Bool { get set }
    /// The state each time it changes on its own (the server lost, a reconnect), so the status line
    /// is redrawn without waiting for a key. Every call returns a new stream.
    func stateChanges() -> AsyncStream<SoundState>
}

extension SoundEngine {
    /// An engine whose state never changes on its own (a fake): a finished stream.
    public func stateChanges() -> AsyncStream<SoundState> { AsyncStream { $0.finish() } }
}
