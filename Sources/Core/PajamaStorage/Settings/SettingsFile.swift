import FoundationEssentials
import Glibc
import PajamaBasics
import Logging
import PajamaJSON

/// A small JSON settings file under the config folder (the reader's theme, the sound's volume and mute):
/// read with defaults for anything missing or unreadable, written atomically and durably (`SavedFiles.disk`, as
/// progress and bookmarks are: temp file, fsync, rename, the folder flushed; `files` may be the tests' `MemoryFiles`) as compact JSON in the fields'
/// declared order (PajamaJSON, as the files always were). A failed write never stops
/// reading (the setting is only not remembered): it is logged, and returned for the reader to show.
public enum SettingsFile {
    /// The largest settings or theme file read (a theme of every role is under 2 KB).
    public static let maximumFileSize = 64 * 1024

    /// The value in `url`; nil when the file is missing or is not valid JSON of `T`.
    public static func load<T: Decodable>(_ type: T.Type, from url: URL, files: SavedFiles = .disk) -> T? {
        guard let bytes = bytes(at: url, files: files) else { return nil }
        return try? JSONValueDecoder(maximumSize: maximumFileSize).decode(T.self, from: bytes)
    }

    /// The bytes of the file at `url`, when it is a regular file of at most `maximumFileSize`; never
    /// waits on a pipe. (Not `Data(contentsOf:)`: it leaked a buffer on every empty file, found by
    /// fuzz-settings under LeakSanitizer.)
    public static func bytes(at url: URL, files: SavedFiles = .disk) -> [UInt8]? {
        guard case .bytes(let bytes) = files.read(url, maximumFileSize) else { return nil }
        return bytes
    }

    /// Saves `value` atomically to `url`, creating its folder; returns the problem ("cannot save the
    /// WHAT to PATH: REASON") when it could not, having logged it to `log`.
    @discardableResult
    public static func save<T: Encodable>(_ value: T, to url: URL, what: String, log: Logger, files: SavedFiles = .disk) -> String? {
        let reason: String
        do {
            guard let problem = files.write(try JSONValueEncoder().encode(value), url) else { return nil }
            reason = problem
        } catch {
            reason = errorText(error)
        }
        let problem = "cannot save the \(what) to \(url.path): \(reason)"
        log.error("\(problem)")
        return problem
    }
}
