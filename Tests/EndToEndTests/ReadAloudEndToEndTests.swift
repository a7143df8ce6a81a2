import Foundation
import PajamaTestSupport
import Testing

/// Read aloud on the real binary in tmux, against a private PulseAudio server: the voice on its own
/// stream, `v` to turn it off and on, a voice espeak-ng does not have, and no sound at all.
@Suite(.serialized) struct ReadAloudEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func theVoiceSpeaksOnItsOwnStreamAndVTurnsItOffAndOn() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", "--read-aloud", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        var inputs = ""
        #expect(server.waitUntil(timeout: 60) { inputs = server.pactl("list", "sink-inputs"); return inputs.contains("Pajama speech") }, "\(inputs)")
        try t.press("v", thenWaitFor: "read aloud: off")
        try t.press("v", thenWaitFor: "read aloud: on")
        try t.press("?", thenWaitFor: "read aloud on / off")
        t.send("Escape")
        try t.press("q", thenWaitFor: "[exited 0]")
        // The voice's stream went with the reader.
        #expect(server.waitUntil { !server.pactl("list", "sink-inputs").contains("Pajama speech") })
    }

    /// With read aloud off, espeak-ng is not started: no "eSpeak" stream is ever opened on the sound server
    /// (starting espeak-ng opens and closes one). The server's own log, at info level, names every stream.
    @Test func withReadAloudOffNoESpeakStreamIsOpened() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        _ = try server.command("set-log-level 3")
        let t = try TmuxSession([pajama, "read", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(server.waitUntil(timeout: 60) { ((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "").contains("Pajama") },
                "the reader's own client never showed in the server's log")
        try t.press("q", thenWaitFor: "[exited 0]")
        let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
        #expect(!log.contains("eSpeak"), "\(log.suffix(3000))")
    }

    @Test func aVoiceEspeakDoesNotHaveIsRefusedBeforeTheScreenOpens() throws {
        // Refused while the command line is checked, before any screen: no terminal is needed to see it.
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", "--voice", "no-such-voice", story], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("no voice \"no-such-voice\""), "\(run.stderr)")
    }

    @Test func withoutSoundVSaysWhy() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.press("v", thenWaitFor: "read aloud needs sound")
        try t.press("q", thenWaitFor: "[exited 0]")
    }
}

/// Read aloud on demand (issue 27 item 2): `v` turning it on says the page on screen at once, and `V` says
/// the current line again, even while read aloud is off.
@Suite(.serialized) struct ReadAloudOnDemandEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    func speaking(_ server: PrivatePulseServer) -> Bool { server.pactl("list", "sink-inputs").contains("Pajama speech") }

    @Test func vSaysThePageOnScreenAsItTurnsReadAloudOn() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(!speaking(server), "nothing is said before v")
        try t.press("v", thenWaitFor: "read aloud: on")
        // No line is revealed meanwhile: what is said is the page on screen.
        #expect(server.waitUntil(timeout: 60) { speaking(server) })
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func capitalVSaysTheCurrentLineWhileReadAloudIsOff() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", story], environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.press("Space", thenWaitFor: "On a rock")
        #expect(!speaking(server), "nothing is said while read aloud is off")
        t.send("V")
        #expect(server.waitUntil(timeout: 60) { speaking(server) })
        try t.press("?", thenWaitFor: "say the current line again")
        t.send("Escape")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func withoutSoundCapitalVSaysWhy() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.press("V", thenWaitFor: "read aloud needs sound")
        try t.press("q", thenWaitFor: "[exited 0]")
    }
}
