import Foundation
import Logging
import PajamaCore

/// The reader's remembered choices (the theme), in `Paths.readerSettings` (`config/reader.json`):
/// `{"theme": "dark"}`.
public struct ReaderSettings: Codable, Sendable, Equatable {
    /// The theme chosen last time, if any.
    public var theme: String?

    public init(theme: String? = nil) {
        self.theme = theme
    }

    /// The settings in `url`; none when it is missing or unreadable.
    public static func load(from url: URL) -> ReaderSettings {
        guard let data = try? Data(contentsOf: url), let settings = try? JSONDecoder().decode(ReaderSettings.self, from: data) else {
            return ReaderSettings()
        }
        return settings
    }

    /// Saves atomically to `url`, creating its folder. A failure never stops reading (the theme is only
    /// not remembered): it is logged, and returned for the reader to show.
    @discardableResult
    public func save(to url: URL) -> String? {
        do {
            let data = try JSONEncoder().encode(self)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
            return nil
        } catch {
            let problem = "cannot save the reader's settings to \(url.path): \(error.localizedDescription)"
            PajamaLog.reader.error("\(problem)")
            return problem
        }
    }
}
