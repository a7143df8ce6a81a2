/// The fallback stream's mixer: the sounds playing now ("voices"), summed into the stream's buffer
/// with each voice's gain and clipped to [-1, 1]. A voice ends when its sound has been played through.
/// Every buffer it plays is already at the stream's rate and channel count. Not thread-safe: the engine
/// uses it only with its mainloop lock held.
struct StreamMixer {
    private struct Voice {
        var samples: [Float]
        var position: Int
        var gain: Float
        /// A looping voice starts again from its beginning when it ends, until stopped.
        var loops = false
    }

    /// The stream's channel count.
    let channels: Int
    private var voices: [Voice] = []

    init(channels: Int) {
        self.channels = channels
        voices.reserveCapacity(32)
    }

    /// How many sounds are playing.
    var activeVoices: Int { voices.count }

    /// Starts `buffer` (at the stream's format) at the next rendered frame, scaled by `gain`.
    mutating func start(_ buffer: PCMBuffer, gain: Float) {
        precondition(buffer.channels == channels, "the buffer must be converted to the stream's channels first")
        voices.append(Voice(samples: buffer.samples, position: 0, gain: gain))
    }

    /// Starts `buffer` once every voice playing now has ended (speech: one line after another), scaled by
    /// `gain`.
    mutating func startAfterOthers(_ buffer: PCMBuffer, gain: Float) {
        precondition(buffer.channels == channels, "the buffer must be converted to the stream's channels first")
        let remaining = voices.map { $0.samples.count - $0.position }.max() ?? 0
        voices.append(Voice(samples: buffer.samples, position: -remaining, gain: gain))
    }

    /// Starts `buffer` (at the stream's format) looping from the next rendered frame, scaled by `gain`, until
    /// `stopAll` (the background sound).
    mutating func startLooping(_ buffer: PCMBuffer, gain: Float) {
        precondition(buffer.channels == channels, "the buffer must be converted to the stream's channels first")
        guard !buffer.samples.isEmpty else { return }
        voices.append(Voice(samples: buffer.samples, position: 0, gain: gain, loops: true))
    }

    /// Sets every voice's gain (the volume or mute changed under a background sound).
    mutating func setGain(_ gain: Float) {
        for v in voices.indices { voices[v].gain = gain }
    }

    /// Stops every voice.
    mutating func stopAll() { voices.removeAll(keepingCapacity: true) }

    /// Writes the next `output.count` interleaved samples (silence when nothing plays).
    mutating func render(into output: UnsafeMutableBufferPointer<Float>) {
        for i in output.indices { output[i] = 0 }
        for v in voices.indices {
            // A voice waiting for others (a negative position) starts that many samples later.
            let wait = min(output.count, max(0, -voices[v].position))
            voices[v].position += wait
            guard voices[v].position >= 0 else { continue }
            let count = min(output.count - wait, voices[v].samples.count - voices[v].position)
            let gain = voices[v].gain
            let start = voices[v].position
            voices[v].samples.withUnsafeBufferPointer { source in
                for i in 0..<count { output[wait + i] += source[start + i] * gain }
            }
            voices[v].position += count
            // A looping voice goes on from its start until the buffer is full.
            var filled = wait + count
            while voices[v].loops, filled < output.count {
                let more = min(output.count - filled, voices[v].samples.count)
                voices[v].samples.withUnsafeBufferPointer { source in
                    for i in 0..<more { output[filled + i] += source[i] * gain }
                }
                filled += more
                voices[v].position = more
            }
            if voices[v].loops, voices[v].position >= voices[v].samples.count { voices[v].position = 0 }
        }
        voices.removeAll { $0.position >= $0.samples.count }
        for i in output.indices { output[i] = min(1, max(-1, output[i])) }
    }
}
