import Foundation
import PajamaAudio
import PajamaModel
import PajamaStorage
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
        #expect(server.sampleNames().contains(PulseSoundEngine.sampleName(key)))

        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        #expect(engine.play(sound))
        let loud = SinkRecorder.loudSeconds(try recorder.record(seconds: 1.2))
        #expect(loud > 0.3, "heard \(loud) s of a 0.4 s sound")

        await engine.unload(sound)
        #expect(server.waitUntil { !server.sampleNames().contains(PulseSoundEngine.sampleName(key)) })
        await engine.shutdown()
    }

    @Test func silenceWhenNothingPlaysAndWhenMuted() async throws {
        let (server, config, engine) = try startSoundEngine()
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        engine.isMuted = true
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        engine.play(sound)
        #expect(SinkRecorder.loudSeconds(try recorder.record(seconds: 0.8)) == 0)
        #expect(watcher.started().isEmpty, "a muted play asks the server for nothing")
        await engine.shutdown()
    }

    @Test func noServerMeansOffAndLoadsFailFast() async throws {
        let engine = PulseSoundEngine.start(server: "unix:/nonexistent/pajama-socket", settingsFile: nil)
        guard case .off = engine.state else {
            Issue.record("expected off, got \(engine.state)")
            return
        }
        await #expect(throws: AssetLoadError.self) { try await engine.load(key, bytes: TestSound.wav(seconds: 0.1)) }
    }

    /// In both modes: the server goes away (silence, `.off`), a new one starts at the same address,
    /// the engine reconnects in the background and the sound plays (re-uploaded lazily in sample-cache
    /// mode, on a newly opened stream in stream mode), one play per trigger as the server counts them.
    @Test(arguments: [SoundMode.sampleCache, .stream])
    func serverLostThenANewOneAtTheSameAddressRecovers(_ mode: SoundMode) async throws {
        let folder = try TemporaryDirectory(prefix: "pajama-pulse-restart")
        defer { folder.remove() }
        let socket = folder.path + "/native"
        let first = try PrivatePulseServer(socketPath: socket, folder: folder)
        let config = try TemporaryDirectory(prefix: "pajama-cfg")
        defer { config.remove() }
        let engine = PulseSoundEngine.start(server: first.serverAddress, mode: mode, settingsFile: Paths(home: config.url).soundSettings)
        engine.volume = 100
        engine.isMuted = false
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        first.stop(removeFolder: false)
        let wentOff = await eventually { if case .off = engine.state { return true } else { return false } }
        #expect(wentOff, "expected off after the server went away, got \(engine.state)")
        #expect(!engine.play(sound))
        let second = try PrivatePulseServer(socketPath: socket, folder: folder)
        defer { second.stop(removeFolder: false) }
        let expected: SoundState = mode == .stream ? .stream : .sampleCache
        #expect(await eventually(timeout: .seconds(60)) { engine.state == expected }, "the engine reconnected (\(mode.rawValue))")
        let watcher = try SinkInputWatcher(server: second)
        defer { watcher.stop() }
        let recorder = try SinkRecorder(server: second)
        defer { _ = recorder.stop() }
        #expect(engine.play(sound))
        if mode == .sampleCache {
            // Re-uploaded, then played: one sink input, which ends.
            let events = try watcher.waitFor("the play to start and end") { events in
                events.contains { $0.kind == .remove && events.first(where: { $0.kind == .new })?.index == $0.index }
            }
            _ = try recorder.record(seconds: 0.6)
            #expect(watcher.started().count == 1, "played once, not twice: \(events)")
        } else {
            _ = try recorder.record(seconds: 1.2)
        }
        let loud = SinkRecorder.loudSeconds(recorder.samples())
        #expect(loud > 0.2, "heard \(loud) s of a 0.3 s sound")
        if mode == .stream { #expect(loud < 0.5, "heard \(loud) s of a 0.3 s sound played once") }
        await engine.shutdown()
    }
}
