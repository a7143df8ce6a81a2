/// How the engine plays sounds.
///
/// `auto` (the default) probes the server at connect with a tiny upload: when the sample cache takes it,
/// sounds are uploaded and played by the server; when it refuses (some PipeWire setups), the engine
/// falls back to one pre-opened low-latency stream that it mixes into itself. `PAJAMA_SOUND_MODE`
/// forces either mode, for tests, the bench, or a server whose sample cache misbehaves.
public enum SoundMode: String, Sendable, CaseIterable {
    case auto
    case sampleCache = "sample-cache"
    case stream

    /// The environment variable that forces a mode.
    public static let environmentVariable = "PAJAMA_SOUND_MODE"

    /// The mode `PAJAMA_SOUND_MODE` asks for; `auto` when unset, empty or not one of the names.
    public static func fromEnvironment(_ environment: [String: String]) -> SoundMode {
        environment[environmentVariable].flatMap { SoundMode(rawValue: $0.lowercased()) } ?? .auto
    }
}
