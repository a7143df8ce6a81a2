import Foundation
import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// Read aloud's sound path on a private PulseAudio server: espeak-ng in process, its speech on a stream of
/// its own beside the story's sounds, in both sound modes, heard at the sink.
@Suite(.serialized) struct ReadAloudSpeechTests {
    @Test func espeakSynthesisesInProcessAndAnUnknownVoiceIsNamed() throws {
        let synthesizer = try SpeechSynthesizer.shared(voice: "en").get()
        let pcm = try #require(synthesizer.synthesize("The lighthouse keeper climbed the stairs."))
        #expect(pcm.channels == 1 && pcm.sampleRate == synthesizer.sampleRate)
        #expect(pcm.duration > 0.5, "\(pcm.duration) s of speech")
        #expect(pcm.samples.contains { abs($0) > 0.05 })
        guard case .failure(let problem) = SpeechSynthesizer.shared(voice: "no-such-voice") else {
            Issue.record("an unknown voice was accepted")
            return
        }
        #expect(problem.reason.contains("no voice \"no-such-voice\""))
        // The synthesizer still works with a voice it has.
        #expect(try SpeechSynthesizer.shared(voice: "en").get().synthesize("Again.")?.frames ?? 0 > 0)
    }

    @Test(arguments: [SoundMode.sampleCache, .stream])
    func speechPlaysOnItsOwnStreamAndIsHeard(_ mode: SoundMode) async throws {
        let (server, config, engine) = try startSoundEngine(mode)
        defer { server.stop(); config.remove() }
        let synthesizer = try SpeechSynthesizer.shared(voice: "en").get()
        let speech = SpeechClient.live(engine, synthesizer: synthesizer)
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(await speech.say("Down by the harbour the bell rang twice.", true))
        var inputs = ""
        #expect(server.waitUntil { inputs = server.pactl("list", "sink-inputs"); return inputs.contains("Pajama speech") }, "\(inputs)")
        #expect(inputs.contains("media.role = \"a11y\""), "\(inputs)")
        let samples = try recorder.record(seconds: 3)
        #expect(SinkRecorder.loudSeconds(samples) > 0.5, "heard \(SinkRecorder.loudSeconds(samples)) s of speech")
        await engine.shutdown()
    }

    @Test func mutedSpeechIsNotHeard() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        engine.isMuted = true
        let speech = SpeechClient.live(engine, synthesizer: try SpeechSynthesizer.shared(voice: "en").get())
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(await speech.say("Nobody should hear this.", true))
        let samples = try recorder.record(seconds: 2)
        #expect(SinkRecorder.loudSeconds(samples) == 0)
        await engine.shutdown()
    }
}
