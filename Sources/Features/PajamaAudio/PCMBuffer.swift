/// Decoded sound: 32-bit float samples, interleaved, at the file's own rate and channel count
/// (the sound server converts on play). Float keeps full precision from any source format and is what
/// PulseAudio mixes in anyway.
public struct PCMBuffer: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var frames: Int
    public var samples: [Float]

    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
    public var byteCount: Int { samples.count * MemoryLayout<Float>.size }
}
