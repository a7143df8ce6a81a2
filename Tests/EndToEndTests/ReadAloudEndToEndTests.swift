import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Read aloud on the real binary, against a private PulseAudio server: with read aloud off espeak-ng is not
/// started (its stream would be on the process's own server), and a voice espeak-ng does not have is refused.
/// The voice, `v` and `V` run in process: PajamaReaderTests.ReadAloudReadingTests.
@Suite(.serialized) struct ReadAloudEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// With read aloud off, espeak-ng is not started: no "eSpeak" stream is ever opened on the sound server
    /// (starting espeak-ng opens and closes one). The server's own log, at info level, names every stream.
    @Test func withReadAloudOffNoESpeakStreamIsOpened() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        _ = try server.command("set-log-level 3")
        let home = try TemporaryDirectory(prefix: "pajama-no-espeak")
        defer { home.remove() }
        // espeak-ng opens its stream on the process's own server (PULSE_SERVER), so this is a whole process:
        // the binary in plain mode, its input a FIFO the test keeps open until the reader is the server's client.
        let fifo = home.path + "/input"
        #expect(mkfifo(fifo, 0o600) == 0)
        var environment = Paths.environment(home: home.path)
        environment["PULSE_SERVER"] = server.serverAddress
        // Opened for writing (read-write: it does not wait for a reader) before the child opens it to read.
        let input = open(fifo, O_RDWR)
        try #require(input >= 0)
        let pid = try ChildProcess.spawn(pajama, ["read", story], inputFile: fifo, outputFile: home.path + "/out", errorFile: home.path + "/err",
                                         environment: environment)
        defer { if ChildProcess.exitDescription(pid) == nil { ChildProcess.terminate(pid) } }
        #expect(server.waitUntil(timeout: 60) { ((try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? "").contains("Pajama") },
                "the reader's own client never showed in the server's log")
        _ = "q\n".withCString { write(input, $0, 2) }
        close(input)
        var ended: String?
        #expect(Poll.until(timeout: 60) { ended = ChildProcess.exitDescription(pid); return ended != nil }, "pajama did not end after q")
        #expect(ended == "it exited with status 0", "\(ended ?? "")")
        let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
        #expect(!log.contains("eSpeak"), "\(log.suffix(3000))")
    }

    @Test func aVoiceEspeakDoesNotHaveIsRefusedBeforeTheScreenOpens() throws {
        // Refused while the command line is checked, before any screen: no terminal is needed to see it.
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", "--voice", "no-such-voice", story], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("no voice \"no-such-voice\""), "\(run.stderr)")
    }
}
