import Foundation

/// The reader's remembered choices (the theme), in `$XDG_CONFIG_HOME/pajama/reader.json`: `{"theme": "dark"}`.
public struct ReaderSettings: Codable, Sendable, Equatable {
    /// The theme chosen last time, if any.
    public var theme: String?

    public init(theme: String? = nil) {
        self.theme = theme
    }

    static var file: URL {
        let env = ProcessInfo.processInfo.environment
        let config = env["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
        return config.appendingPathComponent("pajama/reader.json")
    }

    /// The theme chosen last time, if any.
    public static func savedTheme() -> String? { load(from: file).theme }

    /// Remembers the theme (atomically; failures are ignored: a read-only config never stops reading).
    public static func save(theme: String) { ReaderSettings(theme: theme).save(to: file) }

    /// The settings in `url`; none when it is missing or unreadable.
    public static func load(from url: URL) -> ReaderSettings {
        guard let data = try? Data(contentsOf: url), let settings = try? JSONDecoder().decode(ReaderSettings.self, from: data) else {
            return ReaderSettings()
        }
        return settings
    }

    /// Saves atomically to `url`, creating its folder.
    public func save(to url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}
