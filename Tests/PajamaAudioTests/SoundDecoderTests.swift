import Foundation
import PajamaAudio
import PajamaCore
import PajamaTestSupport
import Testing

@Suite struct SoundDecoderTests {
    @Test(arguments: [(8_000, 1), (44_100, 2), (96_000, 1)])
    func decodesWAVAtItsOwnRateAndChannels(_ format: (Int, Int)) throws {
        let pcm = try SoundDecoder.decode(TestSound.wav(seconds: 0.5, rate: format.0, channels: format.1), name: "tone.wav")
        #expect(pcm.sampleRate == format.0)
        #expect(pcm.channels == format.1)
        #expect(pcm.frames == format.0 / 2)
        #expect(pcm.samples.map(abs).max()! > 0.4)
    }

    @Test(arguments: ["flac", "ogg"])
    func decodesFormatsMadeBySox(_ ext: String) throws {
        let dir = try TemporaryDirectory(prefix: "pajama-sox")
        defer { dir.remove() }
        let out = dir.path + "/tone." + ext
        let made = try ChildProcess.run("sox", ["-n", "-r", "48000", "-c", "2", out, "synth", "0.3", "sine", "660"])
        try #require(made.status == 0, "sox: \(made.stderr)")
        let pcm = try SoundDecoder.decode(Array(FileManager.default.contents(atPath: out)!), name: "tone." + ext)
        #expect(pcm.sampleRate == 48_000 && pcm.channels == 2)
        #expect(abs(pcm.duration - 0.3) < 0.02)
    }

    @Test func garbageAndTruncatedFilesAreInvalidNotCrashes() {
        #expect(throws: AssetLoadError.self) { try SoundDecoder.decode(Array("not a sound at all".utf8), name: "x.wav") }
        #expect(throws: AssetLoadError.self) { try SoundDecoder.decode([], name: "empty.wav") }
        let wav = TestSound.wav(seconds: 0.2)
        #expect(throws: AssetLoadError.self) { try SoundDecoder.decode(Array(wav.prefix(30)), name: "cut.wav") }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var bytes = wav
            for _ in 0..<20 { bytes[Int.random(in: 0..<60, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            _ = try? SoundDecoder.decode(bytes, name: "fuzz.wav")
        }
    }

    @Test func tooLongIsRefused() {
        #expect(throws: AssetLoadError(.tooLarge, subject: "long.wav", detail: "longer than 1 s")) {
            try SoundDecoder.decode(TestSound.wav(seconds: 2, rate: 8000), name: "long.wav", maximumSeconds: 1)
        }
    }
}
