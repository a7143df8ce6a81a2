import FoundationEssentials
import Glibc
import PajamaBasics
import Logging

/// A swift-log handler that writes one line per record to a `LogFile`:
///
///     2026-11-23T16:40:01.123Z warning pajama.http: refused HTTP 404 status=404 url=http://...
///
/// the time (UTC, milliseconds), the level, the logger's label, the message and the metadata as sorted
/// `key=value` pairs. Line breaks inside a message or a value are written as `\n`, so a record is always
/// one line. The reader's screen belongs to ncurses, so this is where Pajama tells what went wrong.
public struct FileLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public let label: String
    private let file: LogFile

    public init(label: String, file: LogFile, level: Logger.Level = .warning, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.file = file
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let own = event.metadata { all.merge(own) { _, new in new } }
        file.append(Self.line(time: Date(), level: event.level, label: label, message: event.message.description, metadata: all))
    }

    /// One record as its line (with the newline).
    public static func line(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var text = timestamp(time) + " " + level.rawValue + " " + label + ": " + oneLine(message)
        for key in metadata.keys.sorted() {
            text += " " + key + "=" + oneLine(metadata[key]!.description)
        }
        return text + "\n"
    }

    /// `2026-11-23T16:40:01.123Z`.
    static func timestamp(_ time: Date) -> String {
        let interval = time.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - Double(seconds)) * 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.replacing("\r\n", with: "\\n").replacing("\n", with: "\\n")
            .replacing("\r", with: "\\n")
    }
}
