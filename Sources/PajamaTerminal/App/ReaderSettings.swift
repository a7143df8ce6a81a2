import Foundation

/// The reader's remembered choices (the theme), in a file (`Paths.readerSettings`, `config/reader.json`).
public struct ReaderSettings: Sendable {
    public let file: URL

    public init(file: URL) { self.file = file }

    /// The theme chosen last time, if any.
    public func savedTheme() -> String? {
        guard let data = try? Data(contentsOf: file),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["theme"] as? String
    }

    /// Remembers the theme (atomically; failures are ignored: a read-only config never stops reading).
    public func save(theme: String) {
        guard let data = try? JSONSerialization.data(withJSONObject: ["theme": theme]) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}
