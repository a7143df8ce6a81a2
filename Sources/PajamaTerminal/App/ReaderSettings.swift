import Foundation
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
        SettingsFile.load(ReaderSettings.self, from: url) ?? ReaderSettings()
    }

    /// Saves atomically to `url`, creating its folder. A failure never stops reading (the theme is only
    /// not remembered): it is logged, and returned for the reader to show.
    @discardableResult
    public func save(to url: URL) -> String? {
        SettingsFile.save(self, to: url, what: "reader's settings", log: PajamaLog.reader)
    }
}
