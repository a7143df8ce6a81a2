import Foundation
@testable import PajamaAudio
import PajamaModel
import PajamaTestSupport
import Testing

/// Quitting against real, private servers: a frozen server never holds the engine up, and no sample of
/// ours is left on the server, also after the connection dropped and came back.
@Suite(.serialized) struct SoundShutdownTests {
    let key = SoundKey(storyId: "test", storyVersion: "1", path: try! AssetPath(validating: "assets/left.wav"))

    @Test func shutdownWithAFrozenServerReturnsAtOnceAndTheServerRemovesTheSamplesWhenItRuns() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        _ = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        #expect(server.sampleNames().contains(PulseSoundEngine.sampleName(key)))
        server.pause()
        await engine.shutdown()
        server.resume()
        // How long shutdown waited on the server, measured where it waits (the test process's own
        // scheduling under load does not count): its bound is 300 ms; libpulse waits 30 s for a frozen
        // server. The real binary's quit is checked end to end (SoundServerEndToEndTests).
        // Measured before shutdown returned (it was written after, racing this read: ThreadSanitizer).
        #expect(engine.shutdownWait > .zero, "no wait recorded")
        #expect(engine.shutdownWait < .seconds(3), "shutdown waited \(engine.shutdownWait) on the frozen server")
        #expect(server.waitUntil { !server.sampleNames().contains { $0.hasPrefix("pajama.") } }, "\(server.sampleNames())")
    }

    @Test func noSampleIsLeftAfterTheConnectionDroppedAndCameBack() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        let other = SoundKey(storyId: "test", storyVersion: "1", path: try AssetPath(validating: "assets/right.wav"))
        let unloaded = try await engine.load(other, bytes: TestSound.wav(seconds: 0.3, frequency: 660))
        // The server drops our connection (its samples stay); the engine reconnects on its own.
        var changes = engine.stateChanges().makeAsyncIterator()
        let list = server.pactl("list", "clients")
        let ours = try #require(list.components(separatedBy: "Client #").first { $0.contains("application.name = \"Pajama\"") }?
            .split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }, "\(list)")
        let answer = try server.command("kill-client \(ours)")
        #expect(!answer.contains("No client"), "kill-client \(ours): \(answer)")
        let lost = await changes.next()
        guard case .off = lost else {
            Issue.record("expected off, got \(String(describing: lost))")
            return
        }
        // Unloaded while disconnected: removed at the reconnect.
        await engine.unload(unloaded)
        let back = await changes.next()
        #expect(back == .sampleCache, "\(String(describing: back))")
        #expect(server.waitUntil { !server.sampleNames().contains(PulseSoundEngine.sampleName(other)) }, "\(server.sampleNames())")
        #expect(engine.play(sound))
        await engine.shutdown()
        #expect(server.waitUntil { !server.sampleNames().contains { $0.hasPrefix("pajama.") } }, "left behind: \(server.sampleNames())")
    }

    @Test func stateChangesAreReportedWhenTheServerGoesAndComesBack() async throws {
        let folder = try TemporaryDirectory(prefix: "pajama-pulse-state")
        defer { folder.remove() }
        let socket = folder.path + "/native"
        let first = try PrivatePulseServer(socketPath: socket, folder: folder)
        let engine = PulseSoundEngine.start(server: first.serverAddress, mode: .sampleCache, settingsFile: nil)
        var changes = engine.stateChanges().makeAsyncIterator()
        first.stop(removeFolder: false)
        let lost = await changes.next()
        guard case .off = lost else {
            Issue.record("expected off, got \(String(describing: lost))")
            return
        }
        let second = try PrivatePulseServer(socketPath: socket, folder: folder)
        defer { second.stop(removeFolder: false) }
        let back = await changes.next()
        #expect(back == .sampleCache || back == .muted, "\(String(describing: back))")
        await engine.shutdown()
        #expect(await changes.next() == nil, "shutdown finishes the stream")
    }
}
