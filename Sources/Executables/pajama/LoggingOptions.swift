import ArgumentParser
import Logging
import PajamaStorage

/// `--log-level`, for every command that reads (`read`, the library, and any later one that includes
/// `@OptionGroup var logging: LoggingOptions`, directly or through `ReadingOptions`). The log is a file
/// (`Paths.logFile`), since the reader's screen belongs to ncurses.
struct LoggingOptions: ParsableArguments {
    @Option(help: "What goes to the log file (pajama doctor shows where it is): trace, debug, info, notice, warning, error or critical.")
    var logLevel: LogLevel = .warning
}

/// swift-log's levels as `--log-level` takes them.
enum LogLevel: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? PajamaLog.defaultLevel }
}

/// A command whose log level the reader chose (`Pajama.main` sets logging up with it before running it).
protocol LoggingCommand {
    var logging: LoggingOptions { get }
}
