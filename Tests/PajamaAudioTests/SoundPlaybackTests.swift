import Foundation
@testable import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// What a private PulseAudio server played, in both modes: overlapping sounds, one sound per trigger,
/// the play proplist, confirmation before "loaded". How many plays and which overlapped come from the
/// server's sink-input events; the recording only proves the sounds were audible.
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
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(engine.play(low))
        #expect(engine.play(high))
        if mode == .sampleCache {
            // Played together: the server had both inputs at once (the second started before the first ended).
            let events = try watcher.waitFor("both plays to end") { $0.filter { $0.kind == .remove }.count >= 2 }
            let starts = events.enumerated().filter { $0.element.kind == .new }.map(\.offset)
            let firstEnd = events.firstIndex { $0.kind == .remove }
            #expect(starts.count == 2 && firstEnd.map { $0 > starts[1] } == true, "\(events)")
        }
        _ = try recorder.record(seconds: mode == .stream ? 1.5 : 0.5)
        let samples = recorder.samples()
        let (at440, at1000, at700) = (SinkRecorder.toneLevel(samples, frequency: 440), SinkRecorder.toneLevel(samples, frequency: 1000),
                                      SinkRecorder.toneLevel(samples, frequency: 700))
        // Both tones far above a frequency nobody played (levels are averaged over the whole recording,
        // whose length depends on the machine's load, so they are compared with each other).
        #expect(at440 > 10 * at700, "440 Hz at \(at440), 700 Hz at \(at700)")
        #expect(at1000 > 10 * at700, "1000 Hz at \(at1000), 700 Hz at \(at700)")
        #expect(at440 > at1000 / 4 && at1000 > at440 / 4, "both about as loud: \(at440), \(at1000)")
        await engine.shutdown()
    }

    @Test(arguments: [SoundMode.sampleCache, .stream])
    func oneTriggerPlaysTheSoundOnce(_ mode: SoundMode) async throws {
        let (server, config, engine) = try startSoundEngine(mode)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(Self.key("assets/tap.wav"), bytes: TestSound.wav(seconds: 0.2, frequency: 660))
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(engine.play(sound))
        if mode == .sampleCache {
            try watcher.waitFor("the play to end") { !$0.filter { $0.kind == .remove }.isEmpty }
            _ = try recorder.record(seconds: 0.5)
            #expect(watcher.started().count == 1, "one sink input per trigger: \(watcher.events())")
        } else {
            _ = try recorder.record(seconds: 1.2)
            // Stream mode mixes in process (one long-lived input): the amount heard says "once".
            #expect(watcher.started().isEmpty)
        }
        let loud = SinkRecorder.loudSeconds(recorder.samples())
        #expect(loud > 0.15 && loud < 0.35, "heard \(loud) s of a 0.2 s sound")
        await engine.shutdown()
    }

    @Test func playCarriesTheEventRoleAndTheStoryAndAssetNames() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(Self.key("assets/long tone.wav"), bytes: TestSound.wav(seconds: 10))
        #expect(engine.play(sound))
        var inputs = ""
        #expect(server.waitUntil { inputs = server.pactl("list", "sink-inputs"); return inputs.contains("pajama.asset") }, "\(inputs)")
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
        // The upload is under way but the (frozen) server has not confirmed it.
        #expect(await eventually { engine.pendingUploads == 1 })
        #expect(!engine.isUploaded(key))
        #expect(!engine.isPlayable(key))
        server.resume()
        let sound = try await load.value
        #expect(engine.isUploaded(key) && engine.isPlayable(key))
        #expect(server.sampleNames().contains(PulseSoundEngine.sampleName(key)))
        #expect(engine.play(sound))
        await engine.shutdown()
    }
}
