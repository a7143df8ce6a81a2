import PajamaAudio

/// The sound decoder path: libsndfile over the bytes in memory (WAV, FLAC, Ogg Vorbis and Opus, MP3), to
/// the PCM the sound engine would upload, within the reader's limits.
public enum SoundFuzz {
    /// The sound, when the bytes are one.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8]) -> PCMBuffer? {
        guard let pcm = try? SoundDecoder.decode(bytes, name: "assets/fuzz.wav") else { return nil }
        precondition(pcm.samples.count == pcm.frames * pcm.channels, "\(pcm.frames) frames of \(pcm.channels) channels in \(pcm.samples.count) samples")
        precondition(Double(pcm.frames) <= SoundDecoder.defaultMaximumSeconds * Double(pcm.sampleRate), "longer than the limit")
        return pcm
    }
}
