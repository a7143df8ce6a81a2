import FoundationEssentials
import Glibc
import PajamaBasics

/// Volume and mute, remembered in a file (`Paths.soundSettings`, `config/sound.json`).
public struct SoundSettings: Codable, Sendable, Equatable {
    public var volume: Int = 80
    public var muted: Bool = false

    public init(volume: Int = 80, muted: Bool = false) {
        self.volume = volume
        self.muted = muted
    }

    /// A key missing from the file keeps its default (a file with only `volume` still loads).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        volume = try container.decodeIfPresent(Int.self, forKey: .volume) ?? 80
        muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false
    }

    /// The settings in `file`; the defaults when it is missing or unreadable, the volume clamped to 0...100.
    public static func load(from file: URL, files: SavedFiles = .disk) -> SoundSettings {
        var settings = SettingsFile.load(SoundSettings.self, from: file, files: files) ?? SoundSettings()
        settings.volume = min(100, max(0, settings.volume))
        return settings
    }

    /// Saves atomically; a read-only config folder only means the setting is not remembered: the failure
    /// is logged and returned.
    @discardableResult
    public func save(to file: URL, files: SavedFiles = .disk) -> String? {
        SettingsFile.save(self, to: file, what: "sound settings", log: PajamaLog.sound, files: files)
    }
}
