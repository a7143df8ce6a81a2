extension PCMBuffer {
    /// This sound at `rate` and `channels`: linear interpolation between frames, and a simple channel
    /// map (mono is copied to every channel; more channels than wanted are averaged into the
    /// channels they fold onto, `i % channels`; fewer are repeated, `c % self.channels`). Done once
    /// when a sound is loaded for the fallback stream, never on the play path.
    public func converted(rate: Int, channels: Int) -> PCMBuffer {
        if rate == sampleRate && channels == self.channels { return self }
        let mixed = remixed(channels: channels)
        return mixed.resampled(rate: rate)
    }

    private func remixed(channels target: Int) -> PCMBuffer {
        guard target != channels else { return self }
        var out = [Float](repeating: 0, count: frames * target)
        for c in 0..<target {
            if target > channels {
                let from = c % channels
                for f in 0..<frames { out[f * target + c] = samples[f * channels + from] }
            } else {
                let sources = stride(from: c, to: channels, by: target).map { $0 }
                let scale = 1 / Float(sources.count)
                for f in 0..<frames {
                    var sum: Float = 0
                    for s in sources { sum += samples[f * channels + s] }
                    out[f * target + c] = sum * scale
                }
            }
        }
        return PCMBuffer(sampleRate: sampleRate, channels: target, frames: frames, samples: out)
    }

    private func resampled(rate target: Int) -> PCMBuffer {
        guard target != sampleRate, frames > 0 else { return PCMBuffer(sampleRate: target, channels: channels, frames: frames, samples: samples) }
        let outFrames = max(1, Int((Double(frames) * Double(target) / Double(sampleRate)).rounded()))
        let step = Double(sampleRate) / Double(target)
        var out = [Float](repeating: 0, count: outFrames * channels)
        for f in 0..<outFrames {
            let position = Double(f) * step
            let i = min(Int(position), frames - 1)
            let j = min(i + 1, frames - 1)
            let t = Float(position - Double(i))
            for c in 0..<channels {
                let a = samples[i * channels + c], b = samples[j * channels + c]
                out[f * channels + c] = a + (b - a) * t
            }
        }
        return PCMBuffer(sampleRate: target, channels: channels, frames: outFrames, samples: out)
    }
}
