import PajamaModel

extension SoundClient {
    /// The reader's sound: `engine` (PulseAudio through libpulse, sounds decoded by libsndfile).
    /// The engine's lifecycle (`shutdown`) stays with whoever started it.
    public static func live(_ engine: PulseSoundEngine) -> SoundClient {
        SoundClient(
            load: { key, bytes throws(AssetLoadError) in try await engine.load(key, bytes: bytes) },
            play: { engine.play($0) },
            unload: { await engine.unload($0) },
            currentState: { engine.state },
            getVolume: { engine.volume }, setVolume: { engine.volume = $0 },
            getMuted: { engine.isMuted }, setMuted: { engine.isMuted = $0 },
            stateChanges: { engine.stateChanges() },
            startLoop: { engine.startLoop($0) },
            stopLoop: { engine.stopLoop() })
    }
}
