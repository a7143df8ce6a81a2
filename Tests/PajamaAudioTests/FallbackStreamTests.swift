import Foundation
import PajamaAudio
import PajamaCore
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
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(800))
        let samples = recorder.stop()
        let loud = SinkRecorder.loudSeconds(samples)
        #expect(loud > 0.3 && loud < 0.55, "heard \(loud) s")
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
        var recorder = try SinkRecorder(server: server)
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(600))
        #expect(SinkRecorder.loudSeconds(recorder.stop()) == 0)

        engine.isMuted = false
        engine.volume = 100
        recorder = try SinkRecorder(server: server)
        engine.play(sound)
        try await Task.sleep(for: .milliseconds(600))
        let loud = SinkRecorder.peakRMS(recorder.stop())
        engine.volume = 20
        recorder = try SinkRecorder(server: server)
        engine.play(sound)
        try await Task.sleep(for: .milliseconds(600))
        let quiet = SinkRecorder.peakRMS(recorder.stop())
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
        let engine = PulseSoundEngine.start(server: server.serverAddress, mode: .auto)
        #expect(engine.mode == .sampleCache)
        #expect(engine.serverReport()?.sampleCache == true)
        #expect(!server.pactl("list", "samples", "short").contains("pajama.probe"), "the probe sample is removed")
        await engine.shutdown()
    }
}
