/// One thing that happened to a file or folder of a watched story folder (`FolderWatcher`), named by its
/// path inside the folder (`beats/storm.json`, `story.json`, `art/new`).
public struct FolderEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The file was written, created, or renamed into place (an editor's temp file + rename).
        case written
        /// The file was deleted or renamed away.
        case removed
        /// A folder appeared: it is watched from now on (the files already in it come as `.written`).
        case folderAdded
        /// A folder was deleted or renamed away, with whatever was in it.
        case folderRemoved
        /// The kernel's event queue overflowed: anything may have changed (`path` is empty).
        case overflow
    }

    public var kind: Kind
    public var path: String

    public init(_ kind: Kind, _ path: String) {
        self.kind = kind
        self.path = path
    }
}
