import PajamaStorage
import PajamaTerminal

/// Where a reading (a story, the library, a host's or a follower's reading) is shown: the process's own
/// terminal, or a terminal with no I/O that a test or the bench drives. Everything else about the reading
/// (opening the story, its checks, its progress, its sound, its co-reading side) is the same wiring for both.
@MainActor
public enum ReaderDisplay {
    /// The process's terminal: full screen (ncurses, the crash guard, the quit signals trapped), or plain
    /// mode on standard input and output when asked (`--plain`) or when the full screen is impossible.
    case processTerminal
    /// A `HeadlessTerminal`: the full-screen reading on it, with the theme the options pick; its keys, its
    /// size and its quit signal (`sendSignal`) are the caller's. No signal is trapped, no terminal touched.
    case headless(HeadlessTerminal)

    /// Whether this display shows a reading with `options` in plain mode.
    func resolvesPlain(_ options: ReaderOptions) -> Bool {
        switch self {
        case .headless: false
        case .processTerminal: ReaderApp.readsPlain(options)
        }
    }

    /// How this display shows a reading with `options`; nil when the process's terminal cannot show the full
    /// screen, having said why on standard error (the caller exits 64, having drawn nothing).
    func resolve(_ options: ReaderOptions) -> ResolvedDisplay? {
        switch self {
        case .headless(let terminal): return .headless(terminal)
        case .processTerminal:
            if ReaderApp.readsPlain(options) { return .plain }
            guard let full = ReaderApp.fullScreenTerminal() else { return nil }
            return .screen(full)
        }
    }
}

/// A display once the options and the terminal have chosen: the full screen, a headless terminal or plain mode.
@MainActor
enum ResolvedDisplay {
    case screen(TerminalCapabilities)
    case headless(HeadlessTerminal)
    case plain

    var isPlain: Bool {
        if case .plain = self { return true }
        return false
    }

    var isHeadless: Bool {
        if case .headless = self { return true }
        return false
    }

    /// Runs a reading on this display: `full` on the screen (`ScreenSession`) or the headless terminal,
    /// `plain` with the quit signals trapped and standard input's lines (closed when it returns).
    func present<Result>(
        options: ReaderOptions, paths: Paths, full: (any ReaderTerminal) async -> Result,
        plain: (QuitSignals, PlainInput) async -> Result
    ) async -> Result {
        switch self {
        case .screen(let capabilities):
            return await ScreenSession.run(on: capabilities, options: options, paths: paths) { screen in await full(screen) }
        case .headless(let terminal):
            terminal.theme = ReaderApp.theme(options, paths: paths)
            return await full(terminal)
        case .plain:
            return await ReaderApp.plainSession { signals in
                let input = PlainInput()
                defer { input.close() }
                return await plain(signals, input)
            }
        }
    }
}
