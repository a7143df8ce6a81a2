import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaJSON
import PajamaModel

/// Saved reading progress, one JSON file per story id in `folder` (`Paths.progress`).
///
/// Saves are atomic (`SavedFiles.disk`: temp file, fsync, rename), so a crash never leaves half a file; a file
/// that cannot be read is moved aside and reported, never a crash. The files are `files` (the disk, or the
/// tests' `MemoryFiles`).
public struct ProgressStore: Sendable {
    public let folder: URL
    public let files: SavedFiles

    public init(folder: URL, files: SavedFiles = .disk) {
        self.folder = folder
        self.files = files
    }

    private func file(_ storyId: String) -> URL { folder.appendingPathComponent(storyId + ".json") }

    /// Saves atomically (`SavedFiles.write`). Errors are returned for the caller to report; reading goes on regardless.
    @discardableResult
    public func save(storyId: String, _ progress: ReadingProgress) -> String? {
        guard StoryManifest.isValidId(storyId) else { return "invalid story id" }
        do {
            return files.write(try JSONValueEncoder.sorted.encode(progress), file(storyId)).map { "cannot save progress: \($0)" }
        } catch {
            return "cannot save progress: \(error)"
        }
    }

    /// When the story's progress was last written (the reader's last reading of it), nil when it has none.
    public func lastSaved(storyId: String) -> Date? {
        guard StoryManifest.isValidId(storyId) else { return nil }
        return files.modified(file(storyId))
    }

    /// The largest progress file read (a history of 500 places is far below it).
    public static let maximumFileSize = 1 << 20

    /// The result of loading: the progress, or nil; and a warning when a file was broken.
    ///
    /// Whatever is at the path, loading never hangs or reads without limit: a named pipe, a folder, a
    /// file over `maximumFileSize` or one that is not whole, valid progress is moved aside, and the
    /// warning names the file and the reason.
    public func load(storyId: String) -> (progress: ReadingProgress?, warning: String?) {
        let url = file(storyId)
        let problem: String
        switch files.read(url, Self.maximumFileSize) {
        case .missing: return (nil, nil)
        case .unusable(let reason): problem = reason
        case .bytes(let bytes):
            do {
                return (try JSONValueDecoder().decode(ReadingProgress.self, from: bytes), nil)
            } catch {
                problem = Self.reason(error)
            }
        }
        let aside: URL
        do {
            aside = try files.moveAside(url)
        } catch {
            // Kept in place: the next save replaces it. Said, since what it held is then gone.
            let said = "saved progress \(url.path) is unreadable (\(problem)) and could not be moved aside (\(errorText(error))); starting afresh"
            PajamaLog.progress.error("\(said)")
            return (nil, said)
        }
        PajamaLog.progress.warning("unreadable progress moved aside", metadata: ["file": "\(url.path)", "to": "\(aside.path)", "reason": "\(problem)"])
        return (nil, "saved progress \(url.lastPathComponent) was unreadable (\(problem)) and was moved to \(aside.lastPathComponent); starting afresh")
    }

    /// A decoding error in words, naming the line and column or the field (`JSONValueDecoder.describe`).
    static func reason(_ error: any Error) -> String {
        if case .typeMismatch(_, let context)? = error as? DecodingError, context.codingPath.isEmpty {
            return "not valid progress: \(context.debugDescription)"
        }
        return JSONValueDecoder.describe(error)
    }

    /// Forgets a story's progress; returns (and logs) a problem when the file is there and stays.
    @discardableResult
    public func remove(storyId: String) -> String? {
        let url = file(storyId)
        guard let reason = files.remove(url) else { return nil }  // forgotten, or nothing to forget
        let problem = "cannot forget progress \(url.path): \(reason)"
        PajamaLog.progress.error("\(problem)")
        return problem
    }
}
