import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaJSON
import PajamaModel

/// Bookmarks and autosaves, one JSON file per story id in `folder` (`Paths.bookmarks`) of `files` (the disk,
/// or the tests' `MemoryFiles`), written atomically like progress; a file that is not whole, valid bookmarks (or is over 1 MB) is moved aside
/// as `<story>.json.corrupt-<time>` and reported, never a crash.
public struct BookmarkStore: Sendable {
    /// How many autosaves are kept (the newest).
    public static let autosavesKept = 10
    public static let maximumFileSize = 1 << 20

    public let folder: URL
    public let files: SavedFiles

    public init(folder: URL, files: SavedFiles = .disk) {
        self.folder = folder
        self.files = files
    }

    private func file(_ storyId: String) -> URL { folder.appendingPathComponent(storyId + ".json") }

    /// The story's bookmarks (empty when there are none), and a warning when a broken file was moved aside.
    public func load(storyId: String) -> (file: BookmarkFile, warning: String?) {
        guard StoryManifest.isValidId(storyId) else { return (BookmarkFile(), nil) }
        let url = file(storyId)
        let problem: String
        switch files.read(url, Self.maximumFileSize) {
        case .missing: return (BookmarkFile(), nil)
        case .unusable(let reason): problem = reason
        case .bytes(let bytes):
            do {
                return (try JSONValueDecoder().decode(BookmarkFile.self, from: bytes), nil)
            } catch {
                problem = ProgressStore.reason(error)
            }
        }
        do {
            let aside = try files.moveAside(url)
            PajamaLog.progress.warning("unreadable bookmarks moved aside", metadata: ["file": "\(url.path)", "to": "\(aside.path)", "reason": "\(problem)"])
            return (BookmarkFile(), "bookmarks \(url.lastPathComponent) were unreadable (\(problem)) and were moved to \(aside.lastPathComponent)")
        } catch {
            let said = "bookmarks \(url.path) are unreadable (\(problem)) and could not be moved aside (\(errorText(error)))"
            PajamaLog.progress.error("\(said)")
            return (BookmarkFile(), said)
        }
    }

    /// Adds a named bookmark (replacing one of the same name); returns a problem in words, or nil.
    @discardableResult
    public func save(_ bookmark: Bookmark, storyId: String) -> String? {
        update(storyId) { file in
            file.bookmarks.removeAll { $0.name == bookmark.name }
            file.bookmarks.append(bookmark)
        }
    }

    /// Adds an autosave, keeping the newest `autosavesKept`; returns a problem in words, or nil.
    @discardableResult
    public func autosave(_ bookmark: Bookmark, storyId: String) -> String? {
        update(storyId) { file in
            file.autosaves.removeAll { $0.name == bookmark.name }
            file.autosaves.append(bookmark)
            if file.autosaves.count > Self.autosavesKept { file.autosaves.removeFirst(file.autosaves.count - Self.autosavesKept) }
        }
    }

    private func update(_ storyId: String, _ change: (inout BookmarkFile) -> Void) -> String? {
        guard StoryManifest.isValidId(storyId) else { return "invalid story id" }
        var (file, warning) = load(storyId: storyId)
        change(&file)
        do {
            if let problem = files.write(try JSONValueEncoder.pretty.encode(file), self.file(storyId)) { return "cannot save bookmark: \(problem)" }
        } catch {
            return "cannot save bookmark: \(error)"
        }
        return warning
    }

}
