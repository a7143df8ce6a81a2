import PajamaCore

/// A sound layer for unit tests: accepts every sound, records what was loaded, played and unloaded,
/// and keeps a volume and mute like the live engine. `client` is the `SoundClient` to hand to the code
/// under test. No server, no decoding: PulseAudio tests use `PrivatePulseServer` with the live engine.
public final class SoundRecording: Sendable {
    private struct Record {
        var loaded: [SoundKey] = []
        var played: [AssetPath] = []
        var unloaded: [SoundKey] = []
        /// The background sound playing (nil: none) and every start and stop, in order (`"start PATH"`, `"stop"`).
        var loop: AssetPath?
        var loopChanges: [String] = []
        var volume = 100
        var muted = false
    }

    private let record = Locked(Record())
    /// What `play` answers (false: as if the server had lost every sound; nothing is recorded as played).
    public let plays: Bool
    public let state: SoundState

    public init(plays: Bool = true, state: SoundState = .sampleCache) {
        self.plays = plays
        self.state = state
    }

    /// The paths played, in order.
    public var played: [AssetPath] { record.withLock { $0.played } }
    public var loaded: [SoundKey] { record.withLock { $0.loaded } }
    public var unloaded: [SoundKey] { record.withLock { $0.unloaded } }
    public var volume: Int { record.withLock { $0.volume } }
    public var isMuted: Bool { record.withLock { $0.muted } }
    /// The background sound playing now.
    public var loop: AssetPath? { record.withLock { $0.loop } }
    /// Every change of the background sound, in order: `"start PATH"` (a new one), `"stop"`.
    public var loopChanges: [String] { record.withLock { $0.loopChanges } }

    public var client: SoundClient {
        SoundClient(
            load: { [self] key, bytes throws(AssetLoadError) in
                record.withLock { $0.loaded.append(key) }
                return LoadedSound(key: key, frames: 1, sampleRate: 8000, channels: 1, byteCount: max(4, bytes.count))
            },
            play: { [self] sound in
                guard plays else { return false }
                record.withLock { $0.played.append(sound.key.path) }
                return true
            },
            unload: { [self] sound in record.withLock { $0.unloaded.append(sound.key) } },
            currentState: { [self] in
                switch state {
                case .sampleCache, .stream: isMuted ? .muted : state
                case .muted, .off, .disabled: state
                }
            },
            getVolume: { [self] in volume },
            setVolume: { [self] level in record.withLock { $0.volume = min(100, max(0, level)) } },
            getMuted: { [self] in isMuted },
            setMuted: { [self] muted in record.withLock { $0.muted = muted } },
            startLoop: { [self] sound in
                guard plays else { return false }
                record.withLock {
                    if $0.loop != sound.key.path { $0.loopChanges.append("start \(sound.key.path.value)") }
                    $0.loop = sound.key.path
                }
                return true
            },
            stopLoop: { [self] in
                record.withLock {
                    if $0.loop != nil { $0.loopChanges.append("stop") }
                    $0.loop = nil
                }
            })
    }
}

extension SoundClient {
    /// A sound layer that accepts and plays every sound and records nothing anyone reads (see
    /// `SoundRecording` to check what was played).
    public static var test: SoundClient { SoundRecording().client }
}
