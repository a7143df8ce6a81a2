import PajamaModel

/// The host's lines for the reader's log: what a stranger sends is cut and made printable, and a flood
/// cannot rotate the log away: at most `linesPerWindow` lines in each `window`, then one line saying how
/// many were left out.
final class HostLog: Sendable {
    private struct Window {
        var start: ContinuousClock.Instant
        var written = 0
        var leftOut = 0
    }

    private let write: @Sendable (String) -> Void
    private let linesPerWindow: Int
    private let window: Duration
    private let state: Locked<Window>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// `now`: the clock (tests pass their own).
    init(linesPerWindow: Int = 50, window: Duration = .seconds(10), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
         write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.linesPerWindow = linesPerWindow
        self.window = window
        self.now = now
        state = Locked(Window(start: now()))
    }

    /// Writes `line`, unless this window already has its lines.
    func callAsFunction(_ line: String) {
        let now = now()
        let (lines, leftOut) = state.withLock { window -> (Bool, Int) in
            var leftOut = 0
            if now - window.start >= self.window {
                leftOut = window.leftOut
                window = Window(start: now)
            }
            guard window.written < linesPerWindow else {
                window.leftOut += 1
                return (false, leftOut)
            }
            window.written += 1
            return (true, leftOut)
        }
        if leftOut > 0 { write("\(leftOut) more lines like these were left out of the log (at most \(linesPerWindow) in \(window))") }
        if lines { write(line) }
    }

    /// A request path or any text a stranger chose, as it may appear in the log: control characters as
    /// U+FFFD, at most `limit` characters, then "… (N bytes)".
    static func shown(_ text: String, limit: Int = 100) -> String {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit + 1).map {
            $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) ? "\u{FFFD}" : $0
        }))
        guard printable.unicodeScalars.count > limit else { return printable }
        return String(String.UnicodeScalarView(printable.unicodeScalars.prefix(limit))) + "… (\(text.utf8.count) bytes)"
    }

    /// A duration as the log shows it: "30 s", "0.5 s".
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
