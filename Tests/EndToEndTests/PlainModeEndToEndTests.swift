import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// Plain mode (`--plain`, a pipe, TERM=dumb) on the real binary: the story as lines of text, the choices as a
/// numbered list, a prompt that reads a line; no screen control; progress and bookmarks as in the full reader.
@Suite(.serialized) struct PlainModeEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// An environment with its own XDG folders under `home` (progress, bookmarks), no sound server.
    func environment(_ home: TemporaryDirectory, term: String = "xterm-256color") -> [String: String] {
        var env = Paths.environment(home: home.path)
        for (k, v) in ["TERM": term, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PULSE_SERVER": "unix:/nonexistent",
                       "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"] {
            env[k] = v
        }
        return env
    }

    /// `text` has no byte a terminal would take as control: no ESC, no CSI, no C0 but the line break.
    func isPlainText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    /// Whether the terminal's line modes were given back as they were (echo and icanon on).
    func modesKept(_ screen: String) -> Bool {
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("modes:") }) else { return false }
        return Set(line.dropFirst("modes:".count).split(separator: " ").map(String.init)) == ["echo", "icanon"]
    }

    /// Whether the last line shown is the prompt (tmux drops the space after it).
    func prompted(_ screen: String) -> Bool { screen.split(separator: "\n").last { !$0.isEmpty } == ">" }

    /// Title, the first two pages' six lines, then the choice page: seven Enters.
    static let toFirstChoice = String(repeating: "\n", count: 7)

    @Test func onAPipeTheStoryIsReadAsLinesToAnEnding() throws {
        let home = try TemporaryDirectory(prefix: "pajama-plain")
        defer { home.remove() }
        // To the choice, the shore (2), its two lines and its choice (2: the tide bell), then on to the end.
        let script = Self.toFirstChoice + "2\n\n\n2\n" + String(repeating: "\n", count: 8)
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", story], environment: environment(home), timeout: 60, input: script)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let out = run.stdout
        #expect(out.contains("The Lantern Keeper\nA short story for a stormy night\n"), "\(out)")
        // Pictures as their alt text; the choices as a numbered list; each line answered after its prompt.
        #expect(out.contains("[picture: A lighthouse on a rock at night, its beam across the sea]"), "\(out)")
        #expect(out.contains("The Puffin needs a light. What will Mina do?\n  1. Climb the hundred stairs to the lamp room\n"
            + "  2. Take the little brass lantern down to the shore\n> 2\n"), "\(out)")
        #expect(out.contains("Mina pulled the rope."), "\(out)")
        #expect(out.contains("The End\n"), "\(out)")
        #expect(out.contains("pages read"), "\(out)")
        #expect(isPlainText(out), "\(out.debugDescription)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func progressAndBookmarksAreKeptAsInTheFullReader() throws {
        let home = try TemporaryDirectory(prefix: "pajama-plain")
        defer { home.remove() }
        let env = environment(home)
        // To the choice page, a bookmark there under a name of its own, the list, then quit.
        let first = try ChildProcess.run(pajama, ["read", "--no-sound", story], environment: env, timeout: 60,
                                         input: Self.toFirstChoice + "s\nat the fork\no\n\nq\n")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("Bookmark name (Enter for \"The Puffin needs a light. What"), "\(first.stdout)")
        #expect(first.stdout.contains("(bookmarked \"at the fork\")"), "\(first.stdout)")
        #expect(first.stdout.contains("Bookmarks:\n  1. at the fork ("), "\(first.stdout)")
        // Started again: where the reader left off (the choice page), not at the title.
        let again = try ChildProcess.run(pajama, ["read", "--no-sound", story], environment: env, timeout: 60, input: "1\n")
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("  2. Take the little brass lantern down to the shore\n"), "\(again.stdout)")
        #expect(!again.stdout.contains("A short story for a stormy night"), "\(again.stdout)")
        #expect(again.stdout.contains("Up went Mina"), "\(again.stdout)")
        // The bookmark opens where it was saved.
        let marked = try ChildProcess.run(pajama, ["read", "--no-sound", "--bookmark", "at the fork", story], environment: env, timeout: 60,
                                          input: "b\n")
        #expect(marked.status == 0, "\(marked.stdout)\(marked.stderr)")
        #expect(marked.stdout.contains("The Puffin needs a light."), "\(marked.stdout)")
        // Back from it goes to the page before it in the bookmark's history.
        #expect(marked.stdout.contains("> b\n\nFar away in the dark") || marked.stdout.contains("> b\n\n[picture: Lightning"), "\(marked.stdout)")
    }

    @Test func untrustedTextNeverReachesTheOutputAsControlSequences() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-plain-hostile")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"hostile","title":"Hostile","startBeatId":"a","beats":["a"]}"#)
        try dir.write("beats/a.json", #"""
        {"id":"a","pages":[
          {"id":"t","type":"title","title":"\u001b]0;PWNED\u0007Hostile title","subtitle":"\u001b[2Jcleared?","imageUrl":"x.txt",
           "imageAlt":"alt \u001b[31mred"},
          {"id":"x","type":"text","lines":["left \u202egnp.exe right","bell\u0007 and \u009b31m end"]},
          {"id":"c","type":"choice","prompt":"Pick \u001b[1m","choices":[{"text":"go \u001b[5m","targetBeatId":"a"}]}]}
        """#)
        try dir.write("x.txt", "art\n")
        let home = try TemporaryDirectory(prefix: "pajama-plain")
        defer { home.remove() }
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", dir.path], environment: environment(home), timeout: 60,
                                       input: "\n\n\n\u{1B}[2J\ns\n\u{1B}]0;x\u{07}mark\nq\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\u{FFFD}Hostile title"), "\(run.stdout)")
        #expect(run.stdout.contains("left \u{FFFD}gnp.exe right"), "\(run.stdout)")
        #expect(run.stdout.contains("  1. go \u{FFFD}"), "\(run.stdout)")
        #expect(isPlainText(run.stdout), "\(run.stdout.debugDescription)")
        #expect(!run.stdout.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, "\(run.stdout)")
    }

    @Test func aDumbTerminalGetsPlainModeAndKeepsItsLineModes() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story], width: 100, environment: ["TERM": "dumb"])
        defer { t.stop() }
        try t.waitUntil("the title page and the prompt") { $0.contains("A short story for a stormy night") && prompted($0) }
        t.send("Enter")
        try t.waitFor("On a rock at the very edge")
        t.send("?", "Enter")
        try t.waitFor("take that choice")
        t.send("b", "Enter")
        try t.waitUntil("the title page again") { $0.components(separatedBy: "> b").last?.contains("A short story for a stormy night") == true }
        // No screen control: tmux saw no colours, attributes nor the alternate screen.
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(!t.screenWithColours().contains("\u{1B}["), "\(t.screenWithColours().debugDescription)")
        t.send("q", "Enter")
        let after = try t.waitUntil("the exit and the line modes") { $0.contains("[exited 0]") && $0.contains("modes:") }
        #expect(modesKept(after), "\(after)")
    }

    @Test func plainAsksForPlainModeOnAFullScreenTerminal() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--plain", story], width: 100)
        defer { t.stop() }
        try t.waitUntil("the title page and the prompt") { $0.contains("A short story for a stormy night") && prompted($0) }
        #expect(t.paneValue("#{alternate_on}") == "0")
        t.send("q", "Enter")
        try t.waitFor("[exited 0]")
    }

    @Test func aQuitSignalEndsPlainModeWithItsStatus() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--plain", story], width: 100)
        defer { t.stop() }
        try t.waitUntil("the prompt") { $0.contains("A short story for a stormy night") && prompted($0) }
        t.send("C-c")
        let after = try t.waitUntil("the exit and the line modes") { $0.contains("[exited 130]") && $0.contains("modes:") }
        #expect(modesKept(after), "\(after)")
    }

    @Test func theLibraryOnAPipeIsANumberedList() throws {
        let home = try TemporaryDirectory(prefix: "pajama-plain")
        defer { home.remove() }
        var env = environment(home)
        env["PAJAMA_STORIES"] = PackagePaths.stories.path
        let list = try ChildProcess.run(pajama, ["--no-sound"], environment: env, timeout: 60, input: "q\n")
        #expect(list.status == 0, "\(list.stdout)\(list.stderr)")
        let row = list.stdout.split(separator: "\n").first { $0.contains(". The Lantern Keeper (") }
        let number = row.flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }) }
        #expect(number != nil, "\(list.stdout)")
        let run = try ChildProcess.run(pajama, ["--no-sound"], environment: env, timeout: 60, input: "\(number ?? 0)\n\nq\nq\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Read which story?"), "\(run.stdout)")
        #expect(run.stdout.contains(". The Lantern Keeper ("), "\(run.stdout)")
        #expect(run.stdout.contains("On a rock at the very edge"), "\(run.stdout)")
        #expect(isPlainText(run.stdout), "\(run.stdout.debugDescription)")
    }

    @Test func readAloudSpeaksInPlainModeAndVTurnsItOff() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let t = try TmuxSession([pajama, "read", "--plain", "--read-aloud", story], width: 100,
                                environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitUntil("the title page and the prompt") { $0.contains("A short story for a stormy night") && prompted($0) }
        var inputs = ""
        #expect(server.waitUntil(timeout: 60) { inputs = server.pactl("list", "sink-inputs"); return inputs.contains("Pajama speech") }, "\(inputs)")
        t.send("v", "Enter")
        try t.waitFor("(read aloud: off)")
        t.send("q", "Enter")
        try t.waitFor("[exited 0]")
        #expect(server.waitUntil { !server.pactl("list", "sink-inputs").contains("Pajama speech") })
    }
}
