import Foundation
import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// The fallback stream (forced with `mode: .stream`, as PAJAMA_SOUND_MODE=stream does) on a private
/// PulseAudio server: one pre-opened stream, sounds mixed in process and heard at the sink.
@Suite(.serialized) struct FallbackStreamTests {
    let key = SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: "assets/tone.flac"))

    @Test func streamModePlaysAudiblyWithoutTheSampleCache() async throws {
        let (server, config, engine) = try startSoundEngine(.stream)
        defer { server.stop(); config.remove() }
        #expect(engine.state == .stream)
        #expect(engine.mode == .stream)
        // The one stream is open before anything plays.
        #expect(server.pactl("list", "sink-inputs").contains("Pajama sounds"))
        #expect(!engine.isPlayable(key))
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.4, rate: 22_050, channels: 1))
        #expect(engine.isPlayable(key))
        #expect(!engine.isUploaded(key))
        #expect(!server.pactl("list", "samples", "short").contains("pajama."))
        // Held in the stream's format: converted once, at load.
        #expect(sound.sampleRate == FallbackStream.rate && sound.channels == FallbackStream.channels)

        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(engine.play(sound))
        let samples = try recorder.record(seconds: 1.2)
        let loud = SinkRecorder.loudSeconds(samples)
        #expect(loud > 0.3 && loud < 0.7, "heard \(loud) s of a 0.4 s sound played once")
        // The tone itself came out (not noise): far above a frequency nobody played.
        #expect(SinkRecorder.toneLevel(samples, frequency: 440) > 10 * SinkRecorder.toneLevel(samples, frequency: 700))
        await engine.shutdown()
    }

    @Test func muteAndVolumeApplyToTheStream() async throws {
        let (server, config, engine) = try startSoundEngine(.stream)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        engine.isMuted = true
        #expect(engine.state == .muted)
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(engine.play(sound))
        #expect(SinkRecorder.loudSeconds(try recorder.record(seconds: 0.8)) == 0)

        engine.isMuted = false
        engine.volume = 100
        engine.play(sound)
        let loud = SinkRecorder.peakRMS(try recorder.record(seconds: 0.8))
        engine.volume = 20
        engine.play(sound)
        let quiet = SinkRecorder.peakRMS(try recorder.record(seconds: 0.8))
        #expect(quiet > 0.01 && quiet < loud * 0.3, "at 20%: \(quiet), at 100%: \(loud)")
        await engine.shutdown()
    }

    @Test func theModeComesFromTheEnvironment() {
        #expect(SoundMode.fromEnvironment([:]) == .auto)
        #expect(SoundMode.fromEnvironment(["PAJAMA_SOUND_MODE": "stream"]) == .stream)
        #expect(SoundMode.fromEnvironment(["PAJAMA_SOUND_MODE": "Sample-Cache"]) == .sampleCache)
        #expect(SoundMode.fromEnvironment(["PAJAMA_SOUND_MODE": "auto"]) == .auto)
        #expect(SoundMode.fromEnvironment(["PAJAMA_SOUND_MODE": "loud"]) == .auto)
    }

    @Test func autoModeUsesTheSampleCacheWhenTheServerHasOne() async throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let engine = PulseSoundEngine.start(server: server.serverAddress, mode: .auto, settingsFile: nil)
        #expect(engine.mode == .sampleCache)
        #expect(engine.serverReport()?.sampleCache == true)
        #expect(server.waitUntil { !server.sampleNames().contains { $0.hasPrefix("pajama.probe") } }, "the probe sample is removed")
        await engine.shutdown()
    }
}
