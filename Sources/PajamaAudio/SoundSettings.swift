import Foundation

/// Volume and mute, remembered in `$XDG_CONFIG_HOME/pajama/sound.json`.
public struct SoundSettings: Codable, Sendable, Equatable {
    public var volume: Int = 80
    public var muted: Bool = false

    public init(volume: Int = 80, muted: Bool = false) {
        self.volume = volume
        self.muted = muted
    }

    /// `$XDG_CONFIG_HOME/pajama/sound.json` (default `~/.config/pajama/sound.json`).
    public static var file: URL {
        let env = ProcessInfo.processInfo.environment
        let config = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
        return config.appendingPathComponent("pajama/sound.json")
    }

    /// A key missing from the file keeps its default (a file with only `volume` still loads).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        volume = try container.decodeIfPresent(Int.self, forKey: .volume) ?? 80
        muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? false
    }

    public static func load() -> SoundSettings { load(from: file) }

    /// The settings in `url`; the defaults when it is missing or unreadable, the volume clamped to 0...100.
    public static func load(from url: URL) -> SoundSettings {
        guard let data = try? Data(contentsOf: url), var settings = try? JSONDecoder().decode(SoundSettings.self, from: data) else {
            return SoundSettings()
        }
        settings.volume = min(100, max(0, settings.volume))
        return settings
    }

    /// Saves atomically; a read-only config folder only means the setting is not remembered.
    public func save() { save(to: Self.file) }

    /// Saves atomically to `url`, creating its folder.
    public func save(to url: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}
