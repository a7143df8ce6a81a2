import Foundation
import PajamaTestSupport
import Testing

/// The fault matrix's terminal rows (issue 11, section 4), on the real binary in tmux: a storm of
/// resizes down to 1x1 leaves a working reader, and SIGTERM, SIGHUP and SIGINT on the help, choice,
/// loading and error screens (the first screen is in TerminalRestoreEndToEndTests) end it with the
/// terminal given back and the progress file whole.
@Suite(.serialized) struct TerminalFaultEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aHundredResizesLeaveAWorkingReader() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", story])
        defer { t.stop() }
        try t.waitFor("What will Mina do?")
        for i in 0..<100 { t.resize(width: 20 + (i * 37) % 140, height: 5 + (i * 13) % 45) }
        t.resize(width: 80, height: 24)
        try t.waitFor("What will Mina do?")
        try t.press("1", thenWaitFor: "Up went Mina")
        try t.press("q", thenWaitFor: "[exited 0]")
        #expect(t.paneValue("#{alternate_on}") == "0")
    }

    /// Resized to 1x1 and straight back to 80x24, the whole page is drawn again. (Found by this test: the
    /// 1x1 window scrolled the page away, ncurses still believed it was on the terminal and sent only the
    /// cells it thought had changed: one line. A resize now clears the terminal and sends every cell.)
    @Test func oneByOneAndStraightBack() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", story])
        defer { t.stop() }
        try t.waitFor("What will Mina do?")
        t.resize(width: 1, height: 1)
        t.resize(width: 80, height: 24)
        let screen = try t.waitFor("What will Mina do?")
        #expect(screen.contains("The Lantern Keeper") && screen.contains("1. Climb the hundred stairs"), "\(screen)")
        try t.press("q", thenWaitFor: "[exited 0]")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
    }

    /// The screens a quit signal is tried on: help and a choice (the story from its folder), the
    /// loading screen (a beat the test server holds unanswered) and the error screen (a beat file gone).
    enum Screen: String, CaseIterable, Sendable { case help, choice, loading, error }

    static let signals: [(name: String, number: Int32, status: Int32)] = [("TERM", SIGTERM, 143), ("HUP", SIGHUP, 129), ("INT", SIGINT, 130)]

    @Test(arguments: Screen.allCases, ["TERM", "HUP", "INT"])
    func aQuitSignalOnAnyScreenRestoresTheTerminalAndKeepsTheProgress(_ screen: Screen, _ signalName: String) async throws {
        let signal = try #require(Self.signals.first { $0.name == signalName })
        let copy = try TemporaryDirectory(prefix: "pajama-signal")
        defer { copy.remove() }
        let folder = copy.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        var source = folder.path
        var server: TestHTTPServer?
        defer { server?.stopSoon() }
        switch screen {
        case .help, .choice:
            break
        case .loading:
            var options = TestHTTPServer.Options()
            options.held = ["beats/stairs.json"]
            let served = try await TestHTTPServer(root: folder, options: options)
            server = served
            source = served.baseURL + "/"
        case .error:
            try FileManager.default.removeItem(at: folder.appendingPathComponent("beats/stairs.json"))
        }
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", source])
        defer { t.stop() }
        try t.waitFor("What will Mina do?", timeout: 30)
        switch screen {
        case .help: try t.press("?", thenWaitFor: "any key to close")
        case .choice: break
        case .loading: try t.press("1", thenWaitFor: "Loading", timeout: 30)
        case .error: try t.press("1", thenWaitFor: "Could not load", timeout: 30)
        }
        let pid = try #require(t.programPID(named: "pajama"))
        kill(pid, signal.number)
        let after = try t.waitFor("modes:")
        #expect(after.contains("[exited \(signal.status)]"), "\(after)")
        let modes = after.split(separator: "\n").first { $0.hasPrefix("modes:") }.map(String.init) ?? ""
        #expect(modes.contains(" echo") && modes.contains("icanon") && !modes.contains("-echo") && !modes.contains("-icanon"), "\(modes)")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
        let file = t.home.path + "/data/pajama/progress/lantern-keeper.json"
        let data = try #require(FileManager.default.contents(atPath: file), "no progress file")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let location = try #require(object["location"] as? [String: Any])
        #expect(location["beatId"] as? String == "storm" && location["pageId"] as? String == "what_now", "\(object)")
    }
}
