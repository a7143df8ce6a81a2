import Foundation
import PajamaModel
import PajamaStorage

/// Saved files kept in memory: the test value of `SavedFiles` (`files`), as the recording `SoundClient` is
/// sound's. Progress, bookmarks and settings go through their real stores (the JSON, the limits, a broken
/// file moved aside, the autosaves kept) without a folder on disk; a test plants a file's bytes, reads
/// what was written, and makes writes fail with a reason the disk would give (`failWrites`).
public final class MemoryFiles: Sendable {
    private struct State {
        var files: [String: (bytes: [UInt8], written: Date)] = [:]
        /// Why writes fail ("No space left on device"); nil: they succeed.
        var writeFailure: String?
        var writes = 0
        var refused = 0
    }

    private let state = Locked(State())

    public init() {}

    /// The `SavedFiles` that keeps its files here.
    public var files: SavedFiles {
        SavedFiles(
            read: { [self] file, limit in
                state.withLock { state in
                    guard let entry = state.files[file.path] else { return .missing }
                    return entry.bytes.count <= limit ? .bytes(entry.bytes) : RegularFile.tooLarge(entry.bytes.count, limit: limit)
                }
            },
            write: { [self] bytes, file in
                state.withLock { state in
                    if let failure = state.writeFailure {
                        state.refused += 1
                        return "\(failure) (writing \(file.path))"
                    }
                    state.files[file.path] = (bytes, Date())
                    state.writes += 1
                    return nil
                }
            },
            moveAside: { [self] file in
                try state.withLock { state in
                    guard let entry = state.files.removeValue(forKey: file.path) else { throw MemoryFileMissing(path: file.path) }
                    let aside = SavedFiles.asideName(of: file, at: Date())
                    state.files[aside.path] = entry
                    return aside
                }
            },
            remove: { [self] file in
                state.withLock { state in
                    if state.files[file.path] != nil, let failure = state.writeFailure { return failure }
                    state.files[file.path] = nil
                    return nil
                }
            },
            modified: { [self] file in state.withLock { $0.files[file.path]?.written } }
        )
    }

    /// The bytes at `file`, as the last write left them; nil when there is none.
    public func bytes(at file: URL) -> [UInt8]? { state.withLock { $0.files[file.path]?.bytes } }

    /// Puts `bytes` at `file`, as another program (or an older Pajama) would have left it.
    public func put(_ bytes: [UInt8], at file: URL) {
        state.withLock { $0.files[file.path] = (bytes, Date()) }
    }

    /// The paths of every file kept, sorted.
    public var paths: [String] { state.withLock { $0.files.keys.sorted() } }

    /// How many writes succeeded.
    public var writes: Int { state.withLock { $0.writes } }
    /// How many writes were refused (`failWrites`).
    public var refusedWrites: Int { state.withLock { $0.refused } }

    /// Makes every later write (and removal of a file that is there) fail with `reason`; nil: they succeed again.
    public func failWrites(with reason: String?) { state.withLock { $0.writeFailure = reason } }
}

/// Moving aside a file that is not there.
public struct MemoryFileMissing: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "no such file: \(path)" }
}
