import CNcursesw
import FoundationEssentials
import Glibc
import PajamaBasics

/// What the terminal named by `TERM` can do, read from its terminfo entry before curses starts: whether
/// it can move the cursor (without that, a full-screen reader draws nothing useful), whether it has an
/// alternate screen (without one, the last frame stays up after quitting unless it is cleared), and its
/// colours.
public struct TerminalCapabilities: Sendable, Equatable {
    /// The value of `TERM` ("" when it is not set).
    public var name: String
    /// Whether terminfo has an entry for `name`.
    public var hasEntry: Bool
    /// Cursor addressing (terminfo `cup`).
    public var canMoveCursor: Bool
    /// An alternate screen to draw on and leave (terminfo `smcup` and `rmcup`).
    public var hasAlternateScreen: Bool
    /// Colours (terminfo `colors`); 0 when the terminal has none or has no entry.
    public var colors: Int
    /// How pictures are shown: cells unless `GraphicsProbe` found pixels (set before the screen opens).
    public var graphics: TerminalGraphics = .cells("cells: the terminal was not asked")

    /// Capabilities as given (tests, or a terminal described by hand); `current` reads them from terminfo.
    public init(name: String, hasEntry: Bool, canMoveCursor: Bool, hasAlternateScreen: Bool, colors: Int) {
        self.name = name
        self.hasEntry = hasEntry
        self.canMoveCursor = canMoveCursor
        self.hasAlternateScreen = hasAlternateScreen
        self.colors = colors
    }

    /// The terminal named by `TERM` in `environment`, looked up with `setupterm` (which reads terminfo
    /// only; nothing is written to the terminal). Call it before the screen is opened.
    @MainActor
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalCapabilities {
        let name = environment["TERM"] ?? ""
        let absent = TerminalCapabilities(name: name, hasEntry: false, canMoveCursor: false, hasAlternateScreen: false, colors: 0)
        guard !name.isEmpty else { return absent }
        var status: Int32 = 0
        // Standard error: setupterm only asks it for the size, and it is a terminal more often than standard
        // output in a pipe. With a status pointer, setupterm reports instead of printing and exiting.
        guard setupterm(name, STDERR_FILENO, &status) == OK, status == 1 else { return absent }
        defer { if let terminal = pajama_cur_term() { del_curterm(terminal) } }
        let colors = tigetnum("colors")
        return TerminalCapabilities(
            name: name, hasEntry: true, canMoveCursor: hasString("cup"),
            hasAlternateScreen: hasString("smcup") && hasString("rmcup"), colors: max(0, Int(colors)))
    }

    /// Whether the current terminfo entry has the string capability `capability`: `tigetstr` gives nil
    /// when it is absent and -1 when the name is not a string capability.
    @MainActor
    static func hasString(_ capability: String) -> Bool {
        guard let value = tigetstr(capability) else { return false }
        return Int(bitPattern: value) != -1 && value.pointee != 0
    }

    /// Why Pajama cannot run full-screen on this terminal, or nil when it can.
    public var fullScreenProblem: String? {
        let shown = name.isEmpty ? "TERM is not set" : "TERM=\(name)"
        if name.isEmpty {
            return "this terminal (\(shown)) cannot move the cursor; Pajama needs a full-screen terminal such as xterm-256color (set TERM)"
        }
        if !hasEntry {
            return "this terminal (\(shown)) has no terminfo entry, so Pajama cannot move the cursor; "
                + "Pajama needs a full-screen terminal such as xterm-256color (set TERM, or install the entry)"
        }
        if !canMoveCursor {
            return "this terminal (\(shown)) cannot move the cursor; Pajama needs a full-screen terminal such as xterm-256color"
        }
        return nil
    }
}
