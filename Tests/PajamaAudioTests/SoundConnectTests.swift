import Foundation
@testable import PajamaAudio
import PajamaTestSupport
import Testing

/// Starting against a frozen server (it accepts the connection and never answers): the engine gives up
/// at its connect deadline and reads silently, saying why, instead of waiting on libpulse's 30 s.
@Suite struct SoundConnectTests {
    @Test func startingAgainstAFrozenServerTurnsSoundOffSayingItDidNotAnswer() async throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        server.pause()
        let engine = PulseSoundEngine.start(server: server.serverAddress, mode: .sampleCache, settingsFile: nil)
        server.resume()
        guard case .off(let reason) = engine.state else {
            Issue.record("sound is \(engine.state) after starting against a frozen server")
            await engine.shutdown()
            return
        }
        #expect(reason.contains("did not answer"), "\(reason)")
        await engine.shutdown()
        // Nothing of ours is left connected: the server lists no Pajama client.
        #expect(server.waitUntil { !server.pactl("list", "clients").contains("application.name = \"Pajama\"") })
    }
}
