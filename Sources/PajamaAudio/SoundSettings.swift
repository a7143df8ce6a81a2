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

    public static func load() -> SoundSettings {
        guard let data = try? Data(contentsOf: file), var settings = try? JSONDecoder().decode(SoundSettings.self, from: data) else {
            return SoundSettings()
        }
        settings.volume = min(100, max(0, settings.volume))
        return settings
    }

    /// Saves atomically; a read-only config folder only means the setting is not remembered.
    public func save() {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(at: Self.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: Self.file, options: .atomic)
    }
}
