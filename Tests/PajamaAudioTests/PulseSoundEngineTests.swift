import Foundation
import PajamaAudio
import PajamaCore
import PajamaTestSupport
import Testing

/// Against a real, private PulseAudio server with a null sink whose monitor is recorded.
@Suite(.serialized) struct PulseSoundEngineTests {
    let key = SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: "assets/tone.wav"))

    @Test func uploadIsConfirmedThenPlaysAudiblyAndUnloadRemovesIt() async throws {
        let (server, config, engine) = try startSoundEngine()
        defer { server.stop(); config.remove() }
        #expect(engine.state == .sampleCache)
        #expect(!engine.isUploaded(key))
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.4, frequency: 440))
        #expect(engine.isUploaded(key))
        #expect(server.pactl("list", "samples", "short").contains(PulseSoundEngine.sampleName(key)))
        engine.volume = 100
        engine.isMuted = false

        let recorder = try SinkRecorder(server: server)
        let quietBefore = SinkRecorder.loudSeconds(Array(repeating: 0, count: 4800))
        #expect(quietBefore == 0)
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(800))
        let samples = recorder.stop()
        let loud = SinkRecorder.loudSeconds(samples)
        #expect(loud > 0.3 && loud < 0.6, "heard \(loud) s of sound")

        await engine.unload(sound)
        try await Task.sleep(for: .milliseconds(200))
        #expect(!server.pactl("list", "samples", "short").contains(PulseSoundEngine.sampleName(key)))
        await engine.shutdown()
    }

    @Test func silenceWhenNothingPlaysAndWhenMuted() async throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let config = try TemporaryDirectory(prefix: "pajama-cfg")
        defer { config.remove() }
        setenv("XDG_CONFIG_HOME", config.path, 1)
        let engine = PulseSoundEngine.start(server: server.serverAddress)
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        engine.isMuted = true
        let recorder = try SinkRecorder(server: server)
        engine.play(sound)
        try await Task.sleep(for: .milliseconds(600))
        #expect(SinkRecorder.loudSeconds(recorder.stop()) == 0)
        await engine.shutdown()
    }

    @Test func noServerMeansOffAndLoadsFailFast() async throws {
        let engine = PulseSoundEngine.start(server: "unix:/nonexistent/pajama-socket")
        guard case .off = engine.state else {
            Issue.record("expected off, got \(engine.state)")
            return
        }
        await #expect(throws: AssetLoadError.self) { try await engine.load(key, bytes: TestSound.wav(seconds: 0.1)) }
    }

    /// In both modes: the server goes away (silence, `.off`), a new one starts at the same address,
    /// the engine reconnects in the background and the sound plays once (re-uploaded lazily in
    /// sample-cache mode, on a newly opened stream in stream mode).
    @Test(arguments: [SoundMode.sampleCache, .stream])
    func serverLostThenANewOneAtTheSameAddressRecovers(_ mode: SoundMode) async throws {
        let folder = try TemporaryDirectory(prefix: "pajama-pulse-restart")
        defer { folder.remove() }
        let socket = folder.path + "/native"
        let first = try PrivatePulseServer(socketPath: socket, folder: folder)
        let config = try TemporaryDirectory(prefix: "pajama-cfg")
        defer { config.remove() }
        setenv("XDG_CONFIG_HOME", config.path, 1)
        let engine = PulseSoundEngine.start(server: first.serverAddress, mode: mode)
        engine.volume = 100
        engine.isMuted = false
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        first.stop(removeFolder: false)
        try await Task.sleep(for: .milliseconds(500))
        #expect(!engine.play(sound))
        guard case .off = engine.state else {
            Issue.record("expected off after the server went away, got \(engine.state)")
            return
        }
        let second = try PrivatePulseServer(socketPath: socket, folder: folder)
        defer { second.stop(removeFolder: false) }
        let expected: SoundState = mode == .stream ? .stream : .sampleCache
        var back = false
        for _ in 0..<40 where !back {
            try await Task.sleep(for: .milliseconds(250))
            back = engine.state == expected
        }
        #expect(back, "the engine reconnected (\(mode.rawValue))")
        let recorder = try SinkRecorder(server: second)
        #expect(engine.play(sound))
        try await Task.sleep(for: .milliseconds(900))
        let samples = recorder.stop()
        #expect(SinkRecorder.loudSeconds(samples) > 0.2)
        #expect(SinkRecorder.onsets(samples) == 1, "played once, not twice")
        await engine.shutdown()
    }
}
