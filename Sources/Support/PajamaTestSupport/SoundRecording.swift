import PajamaModel

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
        /// Tests waiting for a background sound to play (`loopPlays`).
        var loopWaiters: [(path: AssetPath, reply: CheckedContinuation<Void, Never>)] = []
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

    /// Returns once `path` is the background sound playing: at once if it is, else when the start that
    /// makes it so comes (no polling; a test that expects a start that never comes hangs until its time
    /// limit).
    public func loopPlays(_ path: AssetPath) async {
        await withCheckedContinuation { (reply: CheckedContinuation<Void, Never>) in
            let playing = record.withLock { record -> Bool in
                if record.loop == path { return true }
                record.loopWaiters.append((path, reply))
                return false
            }
            if playing { reply.resume() }
        }
    }

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
                let answered = record.withLock { record -> [CheckedContinuation<Void, Never>] in
                    if record.loop != sound.key.path { record.loopChanges.append("start \(sound.key.path.value)") }
                    record.loop = sound.key.path
                    let waiting = record.loopWaiters.filter { $0.path == sound.key.path }.map(\.reply)
                    record.loopWaiters.removeAll { $0.path == sound.key.path }
                    return waiting
                }
                for reply in answered { reply.resume() }
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
