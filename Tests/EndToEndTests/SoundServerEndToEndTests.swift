import Foundation
import PajamaTestSupport
import Testing

/// The real binary in tmux against private PulseAudio servers that misbehave (frozen, killed): q still
/// ends at once and the terminal is given back (the reader's sound states: PajamaReaderTests.ReaderSoundTests).
@Suite(.serialized) struct SoundServerEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Polls `condition` until it holds or `timeout` seconds pass.
    private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        Poll.until(timeout: timeout, condition)
    }

    @Test func quitWithAFrozenServerEndsAtOnceAndRestoresTheTerminal() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.waitFor("sound: on")
        // Some of the story's sounds are on the server, then it freezes (SIGSTOP).
        #expect(server.waitUntil { server.sampleNames().contains { $0.hasPrefix("pajama.") } })
        server.pause()
        t.send("Space")
        t.send("q")
        // Libpulse would wait 30 s for the frozen server; quitting must not (3 s leaves room for a busy machine).
        let ended = waitUntil(timeout: 3) { t.screen().contains("[exited 0]") }
        server.resume()
        #expect(ended, "pajama still running 3 s after q; screen:\n\(t.screen())")
        let screen = try t.waitFor("modes:", timeout: 60)
        let modes = screen.components(separatedBy: "modes:").last ?? ""
        #expect(screen.contains("[exited 0]"))
        #expect(modes.contains(" echo") && modes.contains("icanon") && !modes.contains("-echo") && !modes.contains("-icanon"),
                "the terminal's modes were given back: \(screen)")
        #expect(t.paneValue("#{alternate_on}") == "0")
    }

    /// The fault matrix's "PulseAudio killed mid-story, then started again": SIGKILL (no goodbye on the
    /// socket), reading goes on without sound and says so, a new server on the same socket brings it back.
    @Test func aServerKilledMidStoryIsFollowedAndItsSuccessorTakenUp() throws {
        let folder = try TemporaryDirectory(prefix: "pajama-pulse-e2e")
        defer { folder.remove() }
        let socket = folder.path + "/native"
        let first = try PrivatePulseServer(socketPath: socket, folder: folder)
        defer { first.stop(removeFolder: false) }
        let t = try TmuxSession([pajama, "read", story], environment: ["PULSE_SERVER": first.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.waitFor("sound: on")
        first.send(signal: SIGKILL)
        try t.waitFor("sound: off (no server)", timeout: 20)
        try t.press("Space", thenWaitFor: "On a rock at the very edge")
        let second = try PrivatePulseServer(socketPath: socket, folder: folder)
        defer { second.stop(removeFolder: false) }
        try t.waitFor("sound: on", timeout: 60)
        t.send("q")
        let ended = waitUntil(timeout: 3) { t.screen().contains("[exited 0]") }
        #expect(ended, "pajama still running 3 s after q; screen:\n\(t.screen())")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(second.waitUntil { !second.sampleNames().contains { $0.hasPrefix("pajama.") } }, "left: \(second.sampleNames())")
    }

    /// The fault matrix's "PulseAudio frozen mid-story": while the server is stopped (SIGSTOP) pages
    /// still turn; once it runs again (SIGCONT) the reader is still its client with sound on, and q
    /// ends at once.
    @Test func aServerFrozenMidStoryNeverStopsTheReadingAndIsUsedAgainOnceItRuns() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", "--start", "storm/what_now", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("What will Mina do?")
        try t.waitFor("sound: on")
        server.send(signal: SIGSTOP)
        try t.press("1", thenWaitFor: "stairs", timeout: 20)
        server.send(signal: SIGCONT)
        // The same connection goes on (a frozen server is not a lost one), and the line still says on.
        var clients = ""
        #expect(server.waitUntil { clients = server.pactl("list", "clients"); return clients.contains("application.name = \"Pajama\"") },
                "\(clients)")
        #expect(t.screen().contains("sound: on"), "\(t.screen())")
        t.send("q")
        let ended = waitUntil(timeout: 3) { t.screen().contains("[exited 0]") }
        #expect(ended, "pajama still running 3 s after q; screen:\n\(t.screen())")
        #expect(t.paneValue("#{alternate_on}") == "0")
    }
}
