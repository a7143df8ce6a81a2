import FoundationEssentials
import Glibc
import PajamaBasics
import Logging

/// The loggers of Pajama's areas, and the one place the process's logging is set up.
///
/// `pajama` sends every record to its log file (`Paths.logFile`) at the level `--log-level` chose
/// (default warning), before any logger is used. What is logged: the story opened (its source), beats
/// and assets that failed to load with the reason, retries, HTTP statuses refused, the sound server lost
/// and back, and progress or settings that could not be written.
public enum PajamaLog {
    /// The level when `--log-level` is not given.
    public static let defaultLevel = Logger.Level.warning

    /// Sends every logger of the process to `file` at `level`. Call once, before any logger is used.
    public static func bootstrap(file: URL, level: Logger.Level) {
        let log = LogFile(url: file)
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: log, level: level) }
    }

    /// Stories opened and beats and assets loaded (or not).
    public static let loading = Logger(label: "pajama.loading")
    /// The disk cache of remote stories.
    public static let cache = Logger(label: "pajama.cache")
    /// Requests, retries and refused answers of remote stories.
    public static let http = Logger(label: "pajama.http")
    /// Reading progress written behind the reader.
    public static let progress = Logger(label: "pajama.progress")
    /// The sound server and sound settings.
    public static let sound = Logger(label: "pajama.sound")
    /// The reader's settings and screen.
    public static let reader = Logger(label: "pajama.reader")
    /// Co-reading: the host's refused requests (a wrong or missing token).
    public static let coreading = Logger(label: "pajama.coreading")
}
