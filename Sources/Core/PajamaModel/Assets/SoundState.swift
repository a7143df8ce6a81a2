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
