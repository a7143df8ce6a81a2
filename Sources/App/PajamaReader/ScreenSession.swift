import PajamaStorage
import PajamaTerminal

/// One full-screen session, set up the same way for `read`, the library, `host` and `join`: the crash
/// guard (`TerminalGuard`), the quit signals (SIGINT, SIGTERM, SIGHUP, trapped before the screen opens),
/// the screen, and the terminal given back when `body` returns, however it ended. A quit signal wakes the
/// screen's loop, which ends the normal way (progress saved, followers told); the caller exits with 128 + its
/// number (`exitCode`). The log is set up before, for every command alike (`LoggingCommand`).
@MainActor
enum ScreenSession {
    /// Opens the screen on `terminal` with the theme `options` and `paths` pick, runs `body`, restores the terminal.
    static func run<Result>(
        on terminal: TerminalCapabilities, options: ReaderOptions, paths: Paths, _ body: (Screen) async -> Result
    ) async -> Result {
        TerminalGuard.install()
        let signals = QuitSignals()
        await signals.start()
        defer { signals.stop() }
        var terminal = terminal
        terminal.graphics = GraphicsProbe.detect(options.pictures)  // before curses reads the input
        PajamaLog.reader.info("pictures: \(terminal.graphics.reason)")
        let screen = Screen(theme: ReaderApp.theme(options, paths: paths), capabilities: terminal, signals: signals)
        screen.open()
        let result = await body(screen)
        screen.close()
        return result
    }

    /// The exit status of a reading session that ended so: 0 for a quit, 128 + n for quit signal n.
    static func exitCode(_ outcome: ReaderController.Outcome) -> Int32 {
        if case .signal(let number) = outcome { return 128 + number }
        return 0
    }
}
