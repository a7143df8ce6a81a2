import Foundation
import PajamaTestSupport
import Testing

/// However the reader ends (Ctrl-C, SIGHUP, SIGTERM, a crash signal), the terminal is given back: the
/// alternate screen is left, the cursor shown, and echo and line editing are on again (checked with
/// `stty` in the same pane after the program exits).
@Suite(.serialized) struct TerminalRestoreEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Starts the reader, checks it took the terminal over, ends it with `end`, and checks the pane.
    func endAndCheck(exitStatus: Int32, _ end: (TmuxSession) throws -> Void) throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(t.paneValue("#{alternate_on}") == "1")
        try end(t)
        let screen = try t.waitFor("modes:")
        #expect(screen.contains("[exited \(exitStatus)]"), "\(screen)")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
        let modes = screen.split(separator: "\n").first { $0.hasPrefix("modes:") }.map(String.init) ?? ""
        #expect(modes.contains(" echo") && modes.contains("icanon"), "\(modes)")
        #expect(!modes.contains("-echo") && !modes.contains("-icanon"), "\(modes)")
    }

    @Test func ctrlC() throws {
        try endAndCheck(exitStatus: 130) { t in t.send("C-c") }
    }

    @Test func hangUp() throws {
        try endAndCheck(exitStatus: 129) { t in
            let pid = try #require(t.programPID(named: "pajama"))
            kill(pid, SIGHUP)
        }
    }

    @Test func crashSignal() throws {
        try endAndCheck(exitStatus: 139) { t in
            let pid = try #require(t.programPID(named: "pajama"))
            kill(pid, SIGSEGV)
        }
    }

    @Test func quitKey() throws {
        try endAndCheck(exitStatus: 0) { t in t.send("q") }
    }

    @Test func theReaderEndsWhenItsTerminalGoesAway() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        let pid = try #require(t.programPID(named: "pajama"))
        _ = try ChildProcess.run("tmux", ["-L", t.socket, "kill-server"])
        let gone = Poll.until(timeout: 30) {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first
            return state == nil || state == "Z"
        }
        #expect(gone, "pajama (pid \(pid)) still runs after its terminal closed")
    }
}
