import Foundation

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

    /// Saves atomically to `url`, creating its folder (failures are ignored: a read-only config never
    /// stops reading, the theme is only not remembered).
    public func save(to url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}
