import Foundation
import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// libsndfile decoding from bytes, on sounds made in the test (a Swift-written WAV; sox, opusenc and
/// lame for the other formats): every format, mono and stereo, 8 to 96 kHz, truncated and garbage.
@Suite struct SoundDecoderTests {
    @Test(arguments: [(8_000, 1), (44_100, 2), (96_000, 1)])
    func decodesWAVAtItsOwnRateAndChannels(_ format: (Int, Int)) throws {
        let pcm = try SoundDecoder.decode(TestSound.wav(seconds: 0.5, rate: format.0, channels: format.1), name: "tone.wav")
        #expect(pcm.sampleRate == format.0)
        #expect(pcm.channels == format.1)
        #expect(pcm.frames == format.0 / 2)
        #expect(pcm.samples.map(abs).max()! > 0.4)
    }

    /// (format, rate, channels, the rate libsndfile reports): Opus decodes at the input rate the file
    /// records when Opus supports it (8, 12, 16, 24, 48 kHz), else at 48 kHz.
    static let encoded: [(EncodedSound.Format, Int, Int, Int)] = [
        (.wav, 8_000, 1, 8_000), (.wav, 48_000, 2, 48_000), (.wav, 96_000, 2, 96_000),
        (.flac, 8_000, 1, 8_000), (.flac, 44_100, 2, 44_100), (.flac, 96_000, 1, 96_000),
        (.vorbis, 8_000, 1, 8_000), (.vorbis, 44_100, 2, 44_100), (.vorbis, 96_000, 2, 96_000),
        (.opus, 8_000, 1, 8_000), (.opus, 48_000, 2, 48_000), (.opus, 96_000, 1, 48_000),
        (.mp3, 8_000, 1, 8_000), (.mp3, 44_100, 2, 44_100), (.mp3, 48_000, 1, 48_000),
    ]

    @Test(arguments: encoded)
    func decodesEveryFormatMonoAndStereo(_ format: EncodedSound.Format, _ rate: Int, _ channels: Int, _ decodedRate: Int) throws {
        let sound = try EncodedSound.make(format, seconds: 0.4, rate: rate, channels: channels)
        defer { sound.folder.remove() }
        let pcm = try SoundDecoder.decode(sound.bytes, name: sound.name)
        #expect(pcm.sampleRate == decodedRate)
        #expect(pcm.channels == channels)
        // Lossy codecs pad a little (encoder delay, frame size): within 60 ms.
        #expect(abs(pcm.duration - 0.4) < 0.06, "\(sound.name): \(pcm.duration) s")
        #expect(pcm.samples.map(abs).max()! > 0.3, "\(sound.name) is audible")
    }

    @Test(arguments: EncodedSound.Format.allCases)
    func truncatedFilesDecodeWhatIsThereOrAreInvalid(_ format: EncodedSound.Format) throws {
        let sound = try EncodedSound.make(format, seconds: 0.5, rate: 44_100, channels: 2)
        defer { sound.folder.remove() }
        let full = try SoundDecoder.decode(sound.bytes, name: sound.name)
        // Cut in the middle: a shorter sound, or a clear invalidFormat; never a crash.
        do {
            let half = try SoundDecoder.decode(Array(sound.bytes.prefix(sound.bytes.count / 2)), name: sound.name)
            #expect(half.frames < full.frames, "\(sound.name): a truncated file cannot hold the whole sound")
            #expect(half.frames > 0)
        } catch {
            #expect(error.kind == .invalidFormat, "\(sound.name): \(error)")
        }
        // Cut inside the header: nothing to decode.
        #expect(throws: AssetLoadError.self) { try SoundDecoder.decode(Array(sound.bytes.prefix(20)), name: sound.name) }
        do {
            _ = try SoundDecoder.decode(Array(sound.bytes.prefix(20)), name: sound.name)
        } catch {
            #expect(error.kind == .invalidFormat)
            #expect(error.subject == sound.name)
        }
    }

    @Test(arguments: EncodedSound.Format.allCases)
    func corruptedBytesNeverCrash(_ format: EncodedSound.Format) throws {
        let sound = try EncodedSound.make(format, seconds: 0.2, rate: 22_050, channels: 1)
        defer { sound.folder.remove() }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<30 {
            var bytes = sound.bytes
            for _ in 0..<16 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
            do {
                let pcm = try SoundDecoder.decode(bytes, name: sound.name)
                #expect(pcm.frames > 0 && pcm.samples.count == pcm.frames * pcm.channels)
            } catch {
                #expect([.invalidFormat, .tooLarge].contains(error.kind), "\(error)")
            }
        }
    }

    @Test func garbageAndEmptyFilesAreInvalidNotCrashes() {
        #expect(throws: AssetLoadError(.invalidFormat, subject: "empty.wav", detail: "the file is empty")) {
            try SoundDecoder.decode([], name: "empty.wav")
        }
        var random = SystemRandomNumberGenerator()
        let garbage: [[UInt8]] = [
            Array("not a sound at all".utf8),
            (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) },
            Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8),
            Array("OggS".utf8) + [UInt8](repeating: 0, count: 100),
            Array("fLaC".utf8) + [UInt8](repeating: 0xFF, count: 100),
            Array("ID3".utf8) + [UInt8](repeating: 0, count: 100),
        ]
        for bytes in garbage {
            do {
                _ = try SoundDecoder.decode(bytes, name: "x.snd")
                Issue.record("garbage of \(bytes.count) bytes decoded")
            } catch {
                #expect(error.kind == .invalidFormat, "\(error)")
            }
        }
        let wav = TestSound.wav(seconds: 0.2)
        #expect(throws: AssetLoadError.self) { try SoundDecoder.decode(Array(wav.prefix(30)), name: "cut.wav") }
    }

    @Test func tooLongAndTooBigAreRefused() {
        #expect(throws: AssetLoadError(.tooLarge, subject: "long.wav", detail: "longer than 1 s")) {
            try SoundDecoder.decode(TestSound.wav(seconds: 2, rate: 8000), name: "long.wav", maximumSeconds: 1)
        }
        #expect(throws: AssetLoadError.self) {
            try SoundDecoder.decode(TestSound.wav(seconds: 1, rate: 8000), name: "big.wav", maximumBytes: 1000)
        }
    }

    @Test func conversionForTheStreamKeepsLengthAndLevel() throws {
        let mono = try SoundDecoder.decode(TestSound.wav(seconds: 0.5, rate: 22_050, channels: 1), name: "mono.wav")
        let stereo = mono.converted(rate: 48_000, channels: 2)
        #expect(stereo.sampleRate == 48_000 && stereo.channels == 2)
        #expect(stereo.frames == 24_000)
        #expect(stereo.samples.count == stereo.frames * 2)
        #expect(abs(stereo.samples.map(abs).max()! - mono.samples.map(abs).max()!) < 0.02)
        // Both channels carry the mono signal.
        #expect(stereo.samples[2000] == stereo.samples[2001])
        let back = stereo.converted(rate: 8_000, channels: 1)
        #expect(back.frames == 4_000 && back.channels == 1)
        #expect(mono.converted(rate: 22_050, channels: 1) == mono)
    }
}
