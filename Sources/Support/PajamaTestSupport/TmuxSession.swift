import Foundation
import PajamaStorage

/// A real terminal for end-to-end tests: a private tmux server (its own socket) running one command.
public final class TmuxSession: Sendable {
    public let socket: String
    public let home: TemporaryDirectory

    /// Starts `command` (arguments are shell-quoted) in a `width` x `height` pane, with isolated XDG folders.
    public init(_ command: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:],
                home: TemporaryDirectory? = nil) throws {
        self.home = try home ?? TemporaryDirectory(prefix: "pajama-e2e")
        socket = "pajama-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        var env = Paths.environment(home: self.home.path)
        for (k, v) in ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PULSE_SERVER": "unix:/nonexistent"] {
            env[k] = v
        }
        for (k, v) in environment { env[k] = v }
        let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        // After the program exits, the pane shows its status and the terminal's line modes ("modes: echo
        // icanon" when they were given back, "-echo -icanon" when the program left them changed).
        let modes = "stty -a | tr ' ' '\\n' | grep -x -E -- '-?(echo|icanon)' | tr '\\n' ' '"
        let shell = "env \(assignments) \(command.map(Self.quote).joined(separator: " ")); echo \"[exited $?]\"; "
            + "echo \"modes: $(\(modes))\"; sleep 600"
        let result = try ChildProcess.run("tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", String(height), shell])
        guard result.status == 0 else { throw TmuxError(message: "tmux new-session failed: \(result.stderr)") }
    }

    public struct TmuxError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Sends keys (tmux key names: "Space", "Enter", "Left", "1", "q", "C-c").
    public func send(_ keys: String...) {
        for key in keys { _ = try? ChildProcess.run("tmux", ["-L", socket, "send-keys", "-t", "0", key]) }
    }

    /// Sends `text` as it is (no key names), e.g. a mouse report.
    public func sendRaw(_ text: String) {
        _ = try? ChildProcess.run("tmux", ["-L", socket, "send-keys", "-l", "-t", "0", text])
    }

    /// The screen's text now.
    public func screen() -> String {
        (try? ChildProcess.run("tmux", ["-L", socket, "capture-pane", "-p", "-t", "0"]).stdout) ?? ""
    }

    /// The screen now with its colours and attributes, as the escape sequences tmux writes them (`-e`).
    public func screenWithColours() -> String {
        (try? ChildProcess.run("tmux", ["-L", socket, "capture-pane", "-p", "-e", "-t", "0"]).stdout) ?? ""
    }

    /// The SGR sequences before `word` on its row, each as its parameters cut into single settings (`38;5;160`
    /// is one, `1` another; an empty sequence is `0`); nil when the word is not on the screen. Only the
    /// sequences on the word's row count (tmux starts every row afresh).
    private func settings(before word: String) -> [[String]]? {
        for row in screenWithColours().split(separator: "\n", omittingEmptySubsequences: false) {
            guard let range = row.range(of: word) else { continue }
            var settings: [[String]] = []
            var rest = row[..<range.lowerBound]
            while let escape = rest.range(of: "\u{1B}[") {
                rest = rest[escape.upperBound...]
                guard let end = rest.firstIndex(where: { $0.isLetter }) else { break }
                if rest[end] == "m" {
                    var parameters = rest[..<end].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                    if parameters.isEmpty || parameters == [""] { parameters = ["0"] }
                    var index = 0
                    while index < parameters.count {
                        // 38;5;N, 48;2;R;G;B and the like are one colour setting.
                        let count = parameters[index] == "38" || parameters[index] == "48"
                            ? (parameters.indices.contains(index + 1) && parameters[index + 1] == "2" ? 5 : 3) : 1
                        settings.append(Array(parameters[index..<min(parameters.count, index + count)]))
                        index += count
                    }
                }
                rest = rest[rest.index(after: end)...]
            }
            return settings
        }
        return nil
    }

    /// The SGR parameters in effect where `word` starts on the screen (`["1"]` for bold, `["1", "4"]`...),
    /// nil when the word is not on the screen. Colours are not attributes.
    public func attributes(at word: String) -> Set<String>? {
        settings(before: word).map { settings in
            var attributes = Set<String>()
            for setting in settings where setting.count == 1 {
                let parameter = setting[0]
                if parameter == "0" || parameter.isEmpty { attributes = [] } else if parameter.hasPrefix("2"), parameter.count == 2 {
                    attributes.remove(String(parameter.dropFirst()))  // 22, 23, 24: an attribute off
                    if parameter == "22" { attributes.remove("2") }
                } else if Int(parameter).map({ $0 < 10 }) == true {
                    attributes.insert(parameter)
                }
            }
            return attributes
        }
    }

    /// The foreground colour in effect where `word` starts, as its SGR parameters (`"38;5;160"`, `"31"`,
    /// `"38;2;230;25;25"`); nil when the word is not on the screen or has the terminal's default colour.
    public func foreground(at word: String) -> String? {
        var colour: String?
        for setting in settings(before: word) ?? [] {
            let parameter = setting[0]
            if setting.count > 1 {
                if parameter == "38" { colour = setting.joined(separator: ";") }
            } else if parameter == "0" || parameter == "39" || parameter.isEmpty {
                colour = nil
            } else if let number = Int(parameter), (30...37).contains(number) || (90...97).contains(number) {
                colour = parameter
            }
        }
        return colour
    }

    /// The column where `word` starts on the screen (0-based), nil when it is not there.
    public func column(of word: String) -> Int? {
        for row in screen().split(separator: "\n", omittingEmptySubsequences: false) {
            if let range = row.range(of: word) { return row.distance(from: row.startIndex, to: range.lowerBound) }
        }
        return nil
    }

    /// A tmux format value of the pane (e.g. "#{alternate_on}").
    public func paneValue(_ format: String) -> String {
        ((try? ChildProcess.run("tmux", ["-L", socket, "display-message", "-p", "-t", "0", format]).stdout) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func resize(width: Int, height: Int) {
        _ = try? ChildProcess.run("tmux", ["-L", socket, "resize-window", "-t", "0", "-x", String(width), "-y", String(height)])
    }

    /// How long a wait may take before the test fails. Generous, because it only matters when something
    /// is wrong: on a loaded 2-core machine (the whole suite in parallel and other jobs) a debug build
    /// was seen to take more than 15 s to show its first page.
    public static let defaultTimeout: TimeInterval = 60

    /// Waits until the screen contains `text` (polling), returning the screen; throws with the last screen on timeout.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> String {
        try waitUntil("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the program has exited with `status` ("[exited N]" from the session's shell line). A
    /// killed program leaves the terminal as it set it (no carriage return on a newline), so the shell's
    /// long "Killed" line wraps anywhere, even inside "[exited 137]" (and a space at a row's end is not
    /// captured): the screen is searched without its line breaks and spaces.
    @discardableResult
    public func waitForExit(status: Int32, timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> String {
        try waitUntil("[exited \(status)]", timeout: timeout) { $0.filter { !$0.isWhitespace }.contains("[exited\(status)]") }
    }

    /// Waits until `condition` holds for the screen (polling), returning the screen; throws naming
    /// `description`, with the pane's processes and the last screen, on timeout.
    ///
    /// The condition must hold on two looks in a row, and the second is returned: tmux can show a frame
    /// that ncurses is still writing (some rows new, some old), and a test that asserts more about the
    /// screen it gets must not be handed such a half frame.
    @discardableResult
    public func waitUntil(_ description: String, timeout: TimeInterval = TmuxSession.defaultTimeout,
                          _ condition: (String) -> Bool) throws -> String {
        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        var last = ""
        var polls = 0
        var held = false
        while Date() < deadline {
            last = screen()
            polls += 1
            if condition(last) {
                if held { return last }
                held = true
                continue
            }
            held = false
            usleep(50_000)
        }
        let waited = String(format: "%.1f", Date().timeIntervalSince(started))
        throw TmuxError(message: "timed out waiting for \(description) (\(waited) s, \(polls) looks); the pane's processes:\n"
            + processes() + "screen was:\n\(last)")
    }

    /// Sends one key, then waits for `text`.
    @discardableResult
    public func press(_ key: String, thenWaitFor text: String, timeout: TimeInterval = TmuxSession.defaultTimeout) throws -> String {
        send(key)
        return try waitFor(text, timeout: timeout)
    }

    /// The processes of the pane's session (state, CPU time, where they wait), for failure messages.
    public func processes() -> String {
        let shell = paneValue("#{pane_pid}")
        guard !shell.isEmpty else { return "(no pane)\n" }
        return (try? ChildProcess.run("ps", ["-o", "pid,stat,etime,time,wchan:24,args", "-s", shell], timeout: 10).stdout) ?? ""
    }

    /// The process id of the program in the pane (the shell's child).
    public func programPID(named name: String) -> Int32? {
        let shell = paneValue("#{pane_pid}")
        guard let out = try? ChildProcess.run("pgrep", ["-P", shell, "-f", name]).stdout else { return nil }
        return out.split(separator: "\n").first.flatMap { Int32($0) }
    }

    /// Where tmux keeps the session's socket: `$TMUX_TMPDIR` (else /tmp), `tmux-UID/`, the socket's name.
    public var socketPath: String {
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(folder)/tmux-\(getuid())/\(socket)"
    }

    /// Ends the tmux server (and the program in it) and removes its socket, which tmux's kill-server
    /// leaves behind; the home stays (for a second session on the same progress).
    public func killServer() {
        _ = try? ChildProcess.run("tmux", ["-L", socket, "kill-server"])
        unlink(socketPath)
    }

    /// Ends the server, removes its socket and the home.
    public func stop() {
        killServer()
        home.remove()
    }
}
