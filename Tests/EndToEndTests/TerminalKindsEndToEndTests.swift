import Foundation
import PajamaTestSupport
import Testing

/// Terminals other than xterm, on the real binary in tmux: one that cannot move the cursor (TERM=dumb,
/// or a TERM with no terminfo entry) gets plain mode (PlainModeEndToEndTests), and one without an
/// alternate screen (vt100, linux) is left clean after quitting.
@Suite(.serialized) struct TerminalKindsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test(arguments: ["dumb", "no-such-terminal"])
    func aTerminalThatCannotMoveTheCursorGetsPlainMode(term: String) throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story], width: 120, environment: ["TERM": term])
        defer { t.stop() }
        try t.waitUntil("the title page and the prompt") { $0.contains("A short story for a stormy night") && $0.split(separator: "\n").last { !$0.isEmpty } == ">" }
        #expect(t.paneValue("#{alternate_on}") == "0")
        t.send("q", "Enter")
        let screen = try t.waitUntil("the exit and the line modes") { $0.contains("[exited 0]") && $0.contains("modes:") }
        let modes = screen.split(separator: "\n").first { $0.hasPrefix("modes:") }.map { Set($0.split(separator: " ").dropFirst().map(String.init)) }
        #expect(modes == ["echo", "icanon"], "\(screen)")
    }

    @Test func theLibraryOnADumbTerminalIsANumberedList() throws {
        let t = try TmuxSession([pajama, "--no-sound"], environment: ["TERM": "dumb", "PAJAMA_STORIES": PackagePaths.stories.path])
        defer { t.stop() }
        try t.waitFor("Read which story?")
        t.send("q", "Enter")
        try t.waitFor("[exited 0]")
    }

    /// With no LANG (nor LC_ALL) the library's very first screen draws its UTF-8 glyphs (`—`, `›`, `↑ ↓`, `·`),
    /// not only after a story was read: the locale's character set is UTF-8 before curses starts.
    @Test func withNoLangTheLibrarysFirstScreenDrawsItsGlyphs() throws {
        let t = try TmuxSession([pajama, "--no-sound"], width: 100,
                                environment: ["LANG": "", "LC_ALL": "", "LC_CTYPE": "", "PAJAMA_STORIES": PackagePaths.stories.path])
        defer { t.stop() }
        let screen = try t.waitFor("Enter read")
        #expect(screen.contains("Pajama — stories in"), "\(screen)")
        #expect(screen.contains("› The"), "\(screen)")
        #expect(screen.contains("↑ ↓ choose · Enter read · q quit"), "\(screen)")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    /// TERM=dumb cannot show the full screen, but plain mode reads there: doctor says so and exits 0.
    @Test func doctorSaysADumbTerminalReadsInPlainMode() throws {
        let home = try TemporaryDirectory(prefix: "pajama-doctor-term")
        defer { home.remove() }
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "dumb"
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.path + "/config"
        env["XDG_CACHE_HOME"] = home.path + "/cache"
        env["XDG_DATA_HOME"] = home.path + "/data"
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        env["PULSE_SERVER"] = "unix:/nonexistent"
        let result = try ChildProcess.run(pajama, ["doctor"], environment: env)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("cursor addressing: no"), "\(result.stdout)")
        #expect(result.stdout.contains("plain mode works here"), "\(result.stdout)")
        #expect(result.stdout.contains("terminal: Pajama reads here in plain mode; for the full-screen reader and pictures: this terminal (TERM=dumb) cannot move the cursor"), "\(result.stdout)")
        #expect(!result.stdout.contains("problem:") && !result.stdout.contains("all good"), "\(result.stdout)")
        #expect(result.stdout.contains("reading works in plain mode; sound is off"), "\(result.stdout)")

        env["TERM"] = "xterm-256color"
        let good = try ChildProcess.run(pajama, ["doctor"], environment: env)
        #expect(good.stdout.contains("cursor addressing: yes"), "\(good.stdout)")
        #expect(!good.stdout.contains("cannot move the cursor"), "\(good.stdout)")
    }

    @Test(arguments: ["vt100", "linux"])
    func quittingATerminalWithoutAnAlternateScreenClearsIt(term: String) throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story], environment: ["TERM": term])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(t.paneValue("#{alternate_on}") == "0")
        let after = try t.press("q", thenWaitFor: "[exited 0]")
        // The page is gone: the shell's next lines start on a clean screen.
        #expect(!after.contains("A short story"), "\(after)")
        #expect(!after.contains("The Lantern Keeper"), "\(after)")
        #expect(!after.contains("sound: off"), "\(after)")
        let lines = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains("[exited 0]") == true, "\(after)")
    }
}
