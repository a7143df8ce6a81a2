import FoundationEssentials
import Glibc
import PajamaBasics

/// Makes sure the terminal is given back on crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP): a handler puts back the terminal modes saved before curses started with `tcsetattr`, writes
/// the reset sequence with `write(2)`, both async-signal-safe, and re-raises the signal. The quit signals
/// (Ctrl-C, SIGTERM, SIGHUP) are `QuitSignals`: they end the reader's loop the normal way.
public enum TerminalGuard {
    /// Leaves the alternate screen, shows the cursor, resets attributes, turns mouse reporting off.
    static let resetSequence: [UInt8] = Array("\u{1b}[?1000l\u{1b}[?1002l\u{1b}[?1006l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l\r\n".utf8)

    /// Installs the crash handlers. Call it before the screen is opened: it saves the terminal's modes as
    /// they are now.
    @MainActor
    public static func install() {
        guard !installed else { return }
        installed = true
        resetBuffer.initialize()
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(sig) { number in
                TerminalGuard.resetBuffer.write()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    @MainActor private static var installed = false

    /// The reset bytes in memory allocated once up front, so the crash handler only calls `write`.
    static let resetBuffer = ResetBuffer()

    final class ResetBuffer: Sendable {
        // Safe: written once in `initialize` before any handler is installed, then only read.
        nonisolated(unsafe) private var pointer: UnsafeMutablePointer<UInt8>?
        nonisolated(unsafe) private var count = 0

        // Safe: as above (written once before the handlers exist, then only read).
        nonisolated(unsafe) private var modes = termios()
        nonisolated(unsafe) private var haveModes = false

        func initialize() {
            guard pointer == nil else { return }
            haveModes = tcgetattr(STDIN_FILENO, &modes) == 0
            let bytes = TerminalGuard.resetSequence
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            p.initialize(from: bytes, count: bytes.count)
            count = bytes.count
            pointer = p
        }

        func write() {
            if haveModes { _ = tcsetattr(STDIN_FILENO, TCSANOW, &modes) }
            guard let pointer else { return }
            _ = Glibc.write(STDOUT_FILENO, pointer, count)
        }
    }
}
