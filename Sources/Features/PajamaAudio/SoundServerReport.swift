/// What `pajama doctor` says about the sound server: who it is, whether it has a sample cache (so which
/// mode Pajama uses), and the default sink with its latency.
public struct SoundServerReport: Sendable, Equatable {
    /// The address connected to (`unix:/run/user/1000/pulse/native`, say).
    public var address: String
    /// `pulseaudio`, or `PulseAudio (on PipeWire 0.3.65)` on a PipeWire server.
    public var serverName: String
    public var serverVersion: String
    /// Whether the server took a probe upload into its sample cache.
    public var sampleCache: Bool
    /// The mode the engine uses on this server (`PAJAMA_SOUND_MODE` may force one).
    public var mode: SoundMode
    /// The default sink's name, description and sample format; empty when the server has none.
    public var defaultSink: String
    public var sinkDescription: String
    public var sinkFormat: String
    /// The default sink's current and configured latency, in microseconds.
    public var sinkLatencyMicroseconds: UInt64
    public var sinkConfiguredLatencyMicroseconds: UInt64
}
