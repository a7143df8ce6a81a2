import FoundationEssentials
import Glibc
import PajamaBasics

/// The folders the library (and `pajama list`) shows stories from, and why each was chosen.
///
/// The folder named on the command line, else `$PAJAMA_STORIES`, else `./Stories` when the current folder
/// has one (a source checkout, an author's working folder: as before installing existed); else the stories
/// installed with Pajama and the reader's own folder (`$XDG_DATA_HOME/pajama/stories`, where
/// `pajama install-story` puts them). A story in the reader's folder hides a bundled one with the same id.
public struct LibraryFolders: Sendable, Equatable {
    /// Why a folder is in the library.
    public enum Origin: Sendable, Equatable {
        case argument, environment, currentFolder, installed, yours
    }

    public struct Folder: Sendable, Equatable {
        public var path: String
        public var origin: Origin
        public init(path: String, origin: Origin) {
            self.path = path
            self.origin = origin
        }
    }

    /// First match wins when two folders hold the same story id.
    public var folders: [Folder]

    public init(folders: [Folder]) { self.folders = folders }

    /// The folders for `argument` (the command line's folder, if any).
    public static func resolve(
        argument: String?, environment: [String: String], currentFolder: String, installation: Installation, paths: Paths,
        fileManager: FileManager = .default
    ) -> LibraryFolders {
        if let argument { return LibraryFolders(folders: [Folder(path: argument, origin: .argument)]) }
        if let folder = environment["PAJAMA_STORIES"], !folder.isEmpty {
            return LibraryFolders(folders: [Folder(path: folder, origin: .environment)])
        }
        var isDirectory = false
        let local = PathText.appending(currentFolder, "Stories")
        if fileManager.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory {
            return LibraryFolders(folders: [Folder(path: "Stories", origin: .currentFolder)])
        }
        var folders = [Folder(path: paths.stories.path, origin: .yours)]
        if let bundled = installation.stories { folders.append(Folder(path: bundled, origin: .installed)) }
        return LibraryFolders(folders: folders)
    }

    /// The one folder named by the argument or `$PAJAMA_STORIES`, which must exist; nil for the defaults.
    public var explicit: String? {
        folders.count == 1 && (folders[0].origin == .argument || folders[0].origin == .environment) ? folders[0].path : nil
    }

    /// For the library's title line: the folders, the reader's own first.
    public var title: String { folders.map(\.path).joined(separator: " + ") }

    /// What the library says when it has no story.
    public var emptyHint: String {
        if let own = folders.first(where: { $0.origin == .yours }) {
            return "No stories yet. Add one with `pajama install-story FILE|URL` (into \(own.path)), or set PAJAMA_STORIES."
        }
        return "No stories here. Put story folders in \(title) or set PAJAMA_STORIES."
    }

    /// A line per folder for `pajama doctor`: the path and where it comes from.
    public func describe(installation: Installation) -> [String] {
        folders.map { folder in
            let why = switch folder.origin {
            case .argument: "named on the command line"
            case .environment: "from $PAJAMA_STORIES"
            case .currentFolder: "./Stories of the current folder (it hides the installed and your own stories)"
            case .installed: "bundled, \(installation.origin)"
            case .yours: "yours: pajama install-story puts stories here"
            }
            return "\(folder.path) (\(why))"
        }
    }
}
