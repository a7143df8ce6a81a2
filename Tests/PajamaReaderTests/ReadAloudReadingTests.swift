import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// Read aloud as `pajama read --read-aloud` and its keys run it, in process, against a private PulseAudio
/// server (docs/sound.md, "Read aloud"): the voice on its own stream, `v` to turn it off and on, `v` turning
/// it on saying the page on screen, `V` saying the current line while it is off, and without sound both
/// keys saying why. What is heard is the server's own view: its sink input named "Pajama speech".
/// One at a time: espeak-ng is one synthesizer per process (`SpeechSynthesizer.shared`), and a reader's
/// `cancel()` (a page turned, a quit) ends whatever synthesis is under way, another test's reader's too.
@MainActor @Suite(.serialized) struct ReadAloudReadingTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    static func speaking(_ server: PrivatePulseServer) async throws -> Bool {
        try await BlockingWork.run { server.pactl("list", "sink-inputs").contains("Pajama speech") }
    }

    /// Waits (60 s at most: espeak-ng starts the first time) until the server has a speech stream, or none.
    static func waitUntilSpeaking(_ server: PrivatePulseServer, _ wanted: Bool = true) async throws -> Bool {
        try await BlockingWork.run {
            server.waitUntil(timeout: 60) { server.pactl("list", "sink-inputs").contains("Pajama speech") == wanted }
        }
    }

    static func server() async throws -> PrivatePulseServer { try await BlockingWork.run { try PrivatePulseServer() } }

    @Test func theVoiceSpeaksOnItsOwnStreamAndVTurnsItOffAndOn() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-read-aloud")
        defer { home.remove() }
        let server = try await Self.server()
        defer { server.stop() }
        let t = HeadlessReading.read(story, home: home, options: ReaderOptions(soundServer: server.serverAddress, readAloud: true))
        try await t.waitFor("A short story")
        let spoke = try await Self.waitUntilSpeaking(server)
        let inputs = try await BlockingWork.run { server.pactl("list", "sink-inputs") }
        #expect(spoke, "\(inputs)")
        try await t.type("v", thenWaitFor: "read aloud: off")
        try await t.type("v", thenWaitFor: "read aloud: on")
        try await t.type("?", thenWaitFor: "read aloud on / off")
        t.terminal.push(.escape)
        try await t.waitUntil("the help closed") { !$0.contains("read aloud on / off") }
        #expect(await t.quit() == 0)
        // The voice's stream went with the reader.
        #expect(try await Self.waitUntilSpeaking(server, false))
    }

    @Test func vSaysThePageOnScreenAsItTurnsReadAloudOn() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-read-aloud-v")
        defer { home.remove() }
        let server = try await Self.server()
        defer { server.stop() }
        let t = HeadlessReading.read(story, home: home, options: ReaderOptions(soundServer: server.serverAddress))
        try await t.waitFor("A short story")
        #expect(try await !Self.speaking(server), "nothing is said before v")
        try await t.type("v", thenWaitFor: "read aloud: on")
        // No line is revealed meanwhile: what is said is the page on screen.
        #expect(try await Self.waitUntilSpeaking(server))
        #expect(await t.quit() == 0)
    }

    @Test func capitalVSaysTheCurrentLineWhileReadAloudIsOff() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-read-aloud-V")
        defer { home.remove() }
        let server = try await Self.server()
        defer { server.stop() }
        let t = HeadlessReading.read(story, home: home, options: ReaderOptions(soundServer: server.serverAddress))
        try await t.waitFor("A short story")
        try await t.press(.character(" "), thenWaitFor: "On a rock")
        #expect(try await !Self.speaking(server), "nothing is said while read aloud is off")
        t.terminal.type("V")
        #expect(try await Self.waitUntilSpeaking(server))
        try await t.type("?", thenWaitFor: "say the current line again")
        t.terminal.push(.escape)
        try await t.waitUntil("the help closed") { !$0.contains("say the current line again") }
        #expect(await t.quit() == 0)
    }

    @Test(arguments: ["v", "V"])
    func withoutSoundEachKeySaysWhy(key: String) async throws {
        let home = try TemporaryDirectory(prefix: "pajama-read-aloud-no-sound")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home)
        try await t.waitFor("A short story")
        try await t.type(key, thenWaitFor: "read aloud needs sound")
        #expect(await t.quit() == 0)
    }
}
