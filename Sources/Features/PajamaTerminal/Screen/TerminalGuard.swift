import CCrashGuard
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage

/// Makes sure the terminal is given back on crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
/// SIGTRAP): a handler puts back the terminal modes saved before curses started with `tcsetattr`, writes
/// the reset sequence with `write(2)`, and re-raises the signal. The handler is C (CCrashGuard): a Swift
/// handler, touching Swift's runtime (exclusivity checks, lazy globals) inside a signal, trapped under load
/// and left the terminal raw (exit 132 where 139 was due). The quit signals (Ctrl-C, SIGTERM, SIGHUP) are
/// `QuitSignals`: they end the reader's loop the normal way.
public enum TerminalGuard {
    /// Leaves the alternate screen, shows the cursor, resets attributes, turns mouse reporting off.
    static let resetSequence: [UInt8] = Array("\u{1b}[?1000l\u{1b}[?1002l\u{1b}[?1006l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l\r\n".utf8)

    /// Installs the crash handlers. Call it before the screen is opened: it saves the terminal's modes as
    /// they are now.
    @MainActor
    public static func install() {
        guard !installed else { return }
        installed = true
        if resetSequence.withUnsafeBufferPointer({ pajama_crash_guard_install($0.baseAddress, $0.count) }) != 0 {
            PajamaLog.reader.warning("the crash handlers could not be installed: \(String(cString: strerror(errno)))")
        }
    }

    @MainActor private static var installed = false
}
