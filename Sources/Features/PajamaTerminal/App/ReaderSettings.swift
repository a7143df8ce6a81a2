import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage

/// The reader's remembered choices (the theme, timed text, captions), in `Paths.readerSettings`
/// (`config/reader.json`): `{"theme": "dark", "timedText": false, "captions": true}`.
public struct ReaderSettings: Codable, Sendable, Equatable {
    /// The theme chosen last time, if any.
    public var theme: String?
    /// False: no timed text (`w`, docs/reader.md "No timed text"): each page shown whole, no auto-forward.
    /// Nil (or true): pages as the story reveals them, auto-forward at hand.
    public var timedText: Bool?
    /// Whether the full-screen reader shows the captions of sounds (`c`); nil: never chosen (off).
    public var captions: Bool?

    public init(theme: String? = nil, timedText: Bool? = nil, captions: Bool? = nil) {
        self.theme = theme
        self.timedText = timedText
        self.captions = captions
    }

    /// Whether timed text is on (the default).
    public var hasTimedText: Bool { timedText ?? true }

    /// The settings in `url`; none when it is missing or unreadable.
    public static func load(from url: URL, files: SavedFiles = .disk) -> ReaderSettings {
        SettingsFile.load(ReaderSettings.self, from: url, files: files) ?? ReaderSettings()
    }

    /// Saves atomically to `url`, creating its folder. A failure never stops reading (the theme is only
    /// not remembered): it is logged, and returned for the reader to show.
    @discardableResult
    public func save(to url: URL, files: SavedFiles = .disk) -> String? {
        SettingsFile.save(self, to: url, what: "reader's settings", log: PajamaLog.reader, files: files)
    }
}
