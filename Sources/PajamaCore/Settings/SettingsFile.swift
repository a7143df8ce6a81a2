import Foundation
import Logging

/// A small JSON settings file under the config folder (the reader's theme, the sound's volume and mute):
/// read with defaults for anything missing or unreadable, written atomically. A failed write never stops
/// reading (the setting is only not remembered): it is logged, and returned for the reader to show.
public enum SettingsFile {
    /// The value in `url`; nil when the file is missing or is not valid JSON of `T`.
    public static func load<T: Decodable>(_ type: T.Type, from url: URL) -> T? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// Saves `value` atomically to `url`, creating its folder; returns the problem ("cannot save the
    /// WHAT to PATH: REASON") when it could not, having logged it to `log`.
    @discardableResult
    public static func save<T: Encodable>(_ value: T, to url: URL, what: String, log: Logger) -> String? {
        do {
            let data = try JSONEncoder().encode(value)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
            return nil
        } catch {
            let problem = "cannot save the \(what) to \(url.path): \(error.localizedDescription)"
            log.error("\(problem)")
            return problem
        }
    }
}
