import Foundation
@testable import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// The background sound on a private PulseAudio server (docs/sound.md, "Background sound"): whether it
/// plays, goes on and stops is asked of the server (its sink-input events and list), what it sounds like of
/// a recording of the sink (how loud, never when).
@Suite(.serialized) struct BackgroundLoopTests {
    let rain = SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: "sounds/rain.wav"))
    let wind = SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: "sounds/wind.wav"))

    /// The sink inputs the server lists whose name is the background sound's.
    static func backgroundInputs(_ server: PrivatePulseServer) -> Int {
        server.pactl("list", "sink-inputs").components(separatedBy: "media.name = \"Pajama background\"").count - 1
    }

    @Test(arguments: [SoundMode.sampleCache, .stream])
    func theLoopPlaysOnItsOwnInputUntilStopped(mode: SoundMode) async throws {
        let (server, config, engine) = try startSoundEngine(mode)
        defer { server.stop(); config.remove() }
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let sound = try await engine.load(rain, bytes: TestSound.wav(seconds: 0.25, rate: 22_050, channels: 1))
        #expect(engine.loopPlaying == nil)
        #expect(engine.startLoop(sound))
        let started = try watcher.waitFor("the loop's sink input") { $0.contains { $0.kind == .new } }
        let input = started.first { $0.kind == .new }!.index
        #expect(server.waitUntil { engine.loopPlaying == rain })
        #expect(Self.backgroundInputs(server) == 1)
        #expect(server.pactl("list", "sink-inputs").contains("media.role = \"music\""))
        // Heard for far longer than the sound lasts: it loops.
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        let loud = SinkRecorder.loudSeconds(try recorder.record(seconds: 1.5))
        #expect(loud > 0.75, "heard \(loud) s of a 0.25 s sound looping")
        // The same sound again (the next page names it too): it goes on, no new input.
        #expect(engine.startLoop(sound))
        #expect(Self.backgroundInputs(server) == 1)
        #expect(watcher.started() == [input])
        // Stopped: the server removes its input.
        engine.stopLoop()
        try watcher.waitFor("the loop's input removed") { $0.contains { $0.kind == .remove && $0.index == input } }
        #expect(Self.backgroundInputs(server) == 0)
        #expect(engine.loopPlaying == nil)
        await engine.shutdown()
    }

    @Test func anotherLoopTakesThePlaceOfTheOnePlaying() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let rainSound = try await engine.load(rain, bytes: TestSound.wav(seconds: 0.2))
        let windSound = try await engine.load(wind, bytes: TestSound.wav(seconds: 0.2, frequency: 1000))
        #expect(engine.startLoop(rainSound))
        try watcher.waitFor("the first loop") { $0.filter { $0.kind == .new }.count == 1 }
        #expect(engine.startLoop(windSound))
        let events = try watcher.waitFor("the second loop in place of the first") { events in
            events.filter { $0.kind == .new }.count == 2 && events.filter { $0.kind == .remove }.count == 1
        }
        #expect(events.first { $0.kind == .remove }?.index == events.first { $0.kind == .new }?.index)
        #expect(server.waitUntil { engine.loopPlaying == wind })
        #expect(Self.backgroundInputs(server) == 1)
        // Unloading the sound (the store evicted it) does not cut the loop: it holds its own copy.
        await engine.unload(windSound)
        #expect(engine.loopPlaying == wind)
        #expect(Self.backgroundInputs(server) == 1)
        await engine.shutdown()
    }

    @Test func theLoopFollowsMuteAndVolumeAndSitsUnderThePageSounds() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(rain, bytes: TestSound.wav(seconds: 0.3))
        let recorder = try SinkRecorder(server: server)
        defer { _ = recorder.stop() }
        // A page sound at full volume, alone, for the comparison.
        let tap = try await engine.load(wind, bytes: TestSound.wav(seconds: 0.5))
        engine.play(tap)
        let pageLevel = SinkRecorder.peakRMS(try recorder.record(seconds: 1.0))
        #expect(engine.startLoop(sound))
        #expect(server.waitUntil { engine.loopPlaying == rain })
        _ = try recorder.record(seconds: 0.3)  // what was rendered before is behind us
        let full = SinkRecorder.peakRMS(try recorder.record(seconds: 0.8))
        #expect(full > 0.01 && full < pageLevel * 0.75, "the loop at \(full) against a page sound at \(pageLevel)")
        engine.volume = 20
        _ = try recorder.record(seconds: 0.3)
        let quiet = SinkRecorder.peakRMS(try recorder.record(seconds: 0.8))
        #expect(quiet > 0.002 && quiet < full * 0.4, "at 20%: \(quiet), at 100%: \(full)")
        engine.isMuted = true
        _ = try recorder.record(seconds: 0.3)
        #expect(SinkRecorder.loudSeconds(try recorder.record(seconds: 0.8), threshold: 0.002) == 0)
        // Muted, the loop is still the one wanted: unmuted, it is heard again without being started again.
        #expect(engine.loopPlaying == rain)
        engine.isMuted = false
        engine.volume = 100
        _ = try recorder.record(seconds: 0.3)
        #expect(SinkRecorder.loudSeconds(try recorder.record(seconds: 0.8)) > 0.4)
        await engine.shutdown()
    }

    @Test func shutdownStopsTheLoopAndNoServerMeansNoLoop() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let sound = try await engine.load(rain, bytes: TestSound.wav(seconds: 0.2))
        #expect(engine.startLoop(sound))
        #expect(server.waitUntil { engine.loopPlaying == rain })
        let input = try watcher.waitFor("the loop") { $0.contains { $0.kind == .new } }.first { $0.kind == .new }!.index
        await engine.shutdown()
        try watcher.waitFor("the loop's input removed at shutdown") { $0.contains { $0.kind == .remove && $0.index == input } }
        #expect(engine.loopPlaying == nil)
        #expect(!engine.startLoop(sound))

        let off = PulseSoundEngine.start(server: "unix:/nonexistent/pajama-no-server", mode: .auto, settingsFile: nil)
        #expect(!off.startLoop(sound))
        #expect(off.loopPlaying == nil)
        await off.shutdown()
    }

    @Test func aFrozenServerNeverHoldsTheCallerNorQuitting() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.resume(); server.stop(); config.remove() }
        let sound = try await engine.load(rain, bytes: TestSound.wav(seconds: 0.2))
        server.pause()
        // The stream opens on the engine's queue: the call returns though the server never answers.
        #expect(engine.startLoop(sound))
        #expect(engine.loopPlaying == nil)
        engine.stopLoop()
        #expect(engine.startLoop(sound))
        await engine.shutdown()
        #expect(engine.shutdownWait < .seconds(3), "shutdown waited \(engine.shutdownWait) on the frozen server")
        // Running again, the server never plays the loop of an engine that quit.
        server.resume()
        #expect(server.waitUntil { !server.pactl("list", "clients").contains("application.name = \"Pajama\"") })
        #expect(Self.backgroundInputs(server) == 0)
    }
}
