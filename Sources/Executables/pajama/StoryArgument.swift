import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaTerminal

/// The story a command names (`read`, `play`, `validate`, `host`): a path or URL as given, or the id of a
/// story of the library, as `pajama list` shows it (`pajama read lantern-keeper`). A path wins when both
/// exist: something at the path is always what is read.
enum StoryArgument {
    /// What `argument` names: the path or URL to open, or why it names nothing.
    enum Resolution: Equatable {
        case story(String)
        case unknown(String)
    }

    /// Resolves `argument` against the library's folders (`StoryFolder.resolve(nil, ...)`: $PAJAMA_STORIES,
    /// ./Stories, else the installed stories and yours).
    static func resolve(_ argument: String, paths: Paths) -> Resolution {
        resolve(argument, library: StoryFolder.resolve(nil, paths: paths), progress: paths.progressStore)
    }

    static func resolve(_ argument: String, library: LibraryFolders, progress: ProgressStore) -> Resolution {
        // A URL, a path that exists, or anything an id cannot be (a slash, a dot...) is taken as it is.
        guard !argument.contains("://"), !FileManager.default.fileExists(atPath: argument), StoryManifest.isValidId(argument) else {
            return .story(argument)
        }
        let entries = LibraryEntry.scan(library, progress: progress, formats: .all).filter(\.readable)
        if let entry = entries.first(where: { $0.id == argument }) { return .story(entry.folder) }
        let shown = StoryFormatError.printable(argument)
        let close = closeIds(to: argument, among: entries.map(\.id))
        let hint: String
        if !close.isEmpty {
            hint = "did you mean \(close.joined(separator: ", "))?"
        } else if entries.isEmpty {
            hint = "the library (\(library.title)) has no stories"
        } else {
            hint = "the library's stories are \(entries.prefix(12).map(\.id).joined(separator: ", "))\(entries.count > 12 ? ", ..." : "")"
        }
        return .unknown("\(shown): there is no such file or folder, and no story in the library has that id (\(hint); `pajama list` lists them)")
    }

    /// The ids near `argument` (a typo away, or one holding the other), nearest first, at most five.
    static func closeIds(to argument: String, among ids: [String]) -> [String] {
        let wanted = argument.lowercased()
        let scored = ids.compactMap { id -> (String, Int)? in
            let lower = id.lowercased()
            if lower.contains(wanted) || wanted.contains(lower) { return (id, 0) }
            let distance = editDistance(Array(wanted), Array(lower))
            return distance <= max(2, wanted.count / 3) ? (id, distance) : nil
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(5).map(\.0)
    }

    /// The Levenshtein distance of two strings.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The story to open for `argument`, or nil after saying on standard error why there is none.
    static func open(_ argument: String, paths: Paths) -> String? {
        switch resolve(argument, paths: paths) {
        case .story(let story): return story
        case .unknown(let problem):
            ReaderApp.printError("pajama: \(problem)")
            return nil
        }
    }
}
