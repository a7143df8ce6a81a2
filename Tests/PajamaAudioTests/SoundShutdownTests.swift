import Foundation
import PajamaAudio
import PajamaCore
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
        let done = Task { await engine.shutdown() }
        let finished = Finished()
        Task { await done.value; await finished.set() }
        // A bound an order of magnitude above the engine's own (300 ms), far below libpulse's 30 s timeout.
        #expect(await eventually(timeout: .seconds(3)) { finished.isSet }, "shutdown waited on the frozen server")
        server.resume()
        await done.value
        #expect(server.waitUntil { !server.sampleNames().contains { $0.hasPrefix("pajama.") } }, "\(server.sampleNames())")
    }

    @Test func noSampleIsLeftAfterTheConnectionDroppedAndCameBack() async throws {
        let (server, config, engine) = try startSoundEngine(.sampleCache)
        defer { server.stop(); config.remove() }
        let sound = try await engine.load(key, bytes: TestSound.wav(seconds: 0.3))
        let other = SoundKey(storyId: "test", storyVersion: "1", path: try AssetPath(validating: "assets/right.wav"))
        let unloaded = try await engine.load(other, bytes: TestSound.wav(seconds: 0.3, frequency: 660))
        // The server drops our connection (its samples stay); the engine reconnects on its own.
        let clients = server.pactl("list", "clients").components(separatedBy: "Client #")
        let ours = try #require(clients.first { $0.contains("application.name = \"Pajama\"") }?.split(separator: "\n").first)
        _ = server.pactl("kill-client", String(ours).trimmingCharacters(in: .whitespaces))
        #expect(await eventually { if case .off = engine.state { return true } else { return false } })
        // Unloaded while disconnected: removed at the reconnect.
        await engine.unload(unloaded)
        #expect(await eventually(timeout: .seconds(60)) { engine.state == .sampleCache })
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
        let engine = PulseSoundEngine.start(server: first.serverAddress, mode: .sampleCache)
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

/// A flag set from a task and read while polling.
final class Finished: @unchecked Sendable {
    // Safe: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value = false
    func set() async { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
