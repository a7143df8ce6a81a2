import Foundation

/// The reader's remembered choices (the theme), in `$XDG_CONFIG_HOME/pajama/reader.json`.
public enum ReaderSettings {
    static var file: URL {
        let env = ProcessInfo.processInfo.environment
        let config = env["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
        return config.appendingPathComponent("pajama/reader.json")
    }

    /// The theme chosen last time, if any.
    public static func savedTheme() -> String? {
        guard let data = try? Data(contentsOf: file),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["theme"] as? String
    }

    /// Remembers the theme (atomically; failures are ignored: a read-only config never stops reading).
    public static func save(theme: String) {
        guard let data = try? JSONSerialization.data(withJSONObject: ["theme": theme]) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}
