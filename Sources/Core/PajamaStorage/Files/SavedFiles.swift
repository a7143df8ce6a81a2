import FoundationEssentials
import Glibc
import PajamaBasics

/// Where what Pajama keeps of a reader lives (progress, bookmarks, settings): a value of `@Sendable`
/// closures, as `SoundClient` is for sound, so the place is injected and nothing depends on a protocol's
/// conformers. `.disk` is the files themselves (`RegularFile` to read, `AtomicFile` to write: temp file,
/// fsync, rename, the folder flushed); the tests' `MemoryFiles` (PajamaTestSupport) keeps them in memory
/// and can refuse writes with a reason, so a full disk is tested without a disk.
///
/// `ProgressStore`, `BookmarkStore` and `SettingsFile` hold what the files mean (JSON, limits, moving a
/// broken file aside, the autosaves kept); this holds only bytes at paths.
public struct SavedFiles: Sendable {
    /// The bytes at the path, when a regular file of at most `limit` bytes is there (never waiting on a pipe).
    public var read: @Sendable (_ file: URL, _ limit: Int) -> RegularFile.Outcome
    /// Writes the whole file atomically and durably, creating its folder; the problem in words ("REASON
    /// (writing PATH)", the reason first), or nil.
    public var write: @Sendable (_ bytes: [UInt8], _ file: URL) -> String?
    /// Moves a file that cannot be used to `<name>.corrupt-<time>` beside it; returns where, or throws.
    public var moveAside: @Sendable (_ file: URL) throws -> URL
    /// Removes the file; nil when it is gone (or was never there), else why it stays.
    public var remove: @Sendable (_ file: URL) -> String?
    /// When the file was last written; nil when there is none.
    public var modified: @Sendable (_ file: URL) -> Date?

    public init(
        read: @escaping @Sendable (URL, Int) -> RegularFile.Outcome,
        write: @escaping @Sendable ([UInt8], URL) -> String?,
        moveAside: @escaping @Sendable (URL) throws -> URL,
        remove: @escaping @Sendable (URL) -> String?,
        modified: @escaping @Sendable (URL) -> Date?
    ) {
        self.read = read
        self.write = write
        self.moveAside = moveAside
        self.remove = remove
        self.modified = modified
    }

    /// The name a file moved aside at `time` gets: `<name>.corrupt-<seconds since 1970>`, beside it.
    public static func asideName(of file: URL, at time: Date) -> URL {
        file.appendingPathExtension("corrupt-\(Int(time.timeIntervalSince1970))")
    }
}

extension SavedFiles {
    /// The files on disk.
    public static let disk = SavedFiles(
        read: { file, limit in RegularFile.read(file.path, limit: limit) },
        write: { bytes, file in AtomicFile.write(Data(bytes), to: file) },
        moveAside: { file in try AtomicFile.moveAside(file) },
        remove: { file in
            do {
                try FileManager.default.removeItem(at: file)
                return nil
            } catch {
                return FileManager.default.fileExists(atPath: file.path) ? errorText(error) : nil
            }
        },
        modified: { file in (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date }
    )
}
