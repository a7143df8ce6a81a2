import Foundation
import PajamaAudio
import PajamaCore
import PajamaTestSupport
import Testing

/// What came out of a private PulseAudio server's null sink, in both modes: overlapping sounds, one
/// sound per trigger, the play proplist, confirmation before "loaded", the fallback stream.
@Suite(.serialized) struct SoundPlaybackTests {
    static func key(_ path: String) -> SoundKey {
        SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: path))
    }


    @Test(arguments: [SoundMode.sampleCache, .stream])
    func overlappingSoundsAreBothHeard(_ mode: SoundMode) async throws {
        let (server, config, engine) = try startSoundEngine(mode)
        defer { server.stop(); config.remove() }
        let low = try await engine.load(Self.key("assets/low.wav"), bytes: TestSound.wav(seconds: 0.6, frequency: 440, amplitude: 0.4))
        let high = try await engine.load(Self.key("assets/high.wav"), bytes: TestSound.wav(seconds: 0.6, frequency: 1000, amplitude: 0.4))
        let recorder = try SinkRecorder(server: server)
        #expect(engine.play(low))
        #expect(engine.play(high))
        try await Task.sleep(for: .milliseconds(900))
        let samples = recorder.stop()
        let (at440, at1000, at700) = (SinkRecorder.toneLevel(samples, frequency: 440), SinkRecorder.toneLevel(samples, frequency: 1000),
                                      SinkRecorder.toneLevel(samples, frequency: 700))
        // Both tones far above a frequency nobody played (levels are averaged over the whole recording,
        // whose length depends on the machine's load, so they are compared with each other).
        #expect(at440 > 10 * at700, "440 Hz at \(at440), 700 Hz at \(at700)")
        #expect(at1000 > 10 * at700, "1000 Hz at \(at1000), 700 Hz at \(at700)")
        #expect(at440 > at1000 / 4 && at1000 > at440 / 4, "both about as loud: \(at440), \(at1000)")
        // Played together, not one after the other.
        #expect(SinkRecorder.loudSeconds(samples) < 0.8)
        await engine.shutdown()
    }

    @Test(arguments: [SoundMode.sampleCache, .stream])
    func oneTriggerPlaysTheSoundOnce(_ mode: SoundMode) async throws {
        let (server, config, engine) = try startSoundEngine(mode)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(Self.key("assets/tap.wav"), bytes: TestSound.wav(seconds: 0.2, frequency: 660))
        let recorder = try SinkRecorder(server: server)
        try await Task.sleep(for: .milliseconds(200))
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(1000))
        let samples = recorder.stop()
        #expect(SinkRecorder.onsets(samples) == 1)
        let loud = SinkRecorder.loudSeconds(samples)
        #expect(loud > 0.15 && loud < 0.3, "heard \(loud) s")
        await engine.shutdown()
    }

    @Test func playCarriesTheEventRoleAndTheStoryAndAssetNames() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(Self.key("assets/long tone.wav"), bytes: TestSound.wav(seconds: 2))
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(300))
        let inputs = server.pactl("list", "sink-inputs")
        #expect(inputs.contains("media.role = \"event\""), "\(inputs)")
        #expect(inputs.contains("pajama.story = \"test\""))
        #expect(inputs.contains("pajama.story.version = \"1\""))
        #expect(inputs.contains("pajama.asset = \"assets/long tone.wav\""))
        #expect(inputs.contains("media.name = \"test: assets/long tone.wav\""))
        await engine.shutdown()
    }

    @Test func aSoundIsLoadedOnlyOnceTheServerConfirmsIt() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let key = Self.key("assets/wait.wav")
        server.pause()
        let load = Task { try await engine.load(key, bytes: TestSound.wav(seconds: 0.3)) }
        try await Task.sleep(for: .milliseconds(400))
        // The upload is under way but the (frozen) server has not confirmed it.
        #expect(!engine.isUploaded(key))
        #expect(!engine.isPlayable(key))
        server.resume()
        let sound = try await load.value
        #expect(engine.isUploaded(key) && engine.isPlayable(key))
        #expect(server.pactl("list", "samples", "short").contains(PulseSoundEngine.sampleName(key)))
        #expect(engine.play(sound))
        await engine.shutdown()
    }
}
