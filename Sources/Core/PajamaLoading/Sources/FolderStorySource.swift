import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// A story package in a folder on disk.
///
/// Every path is validated with `AssetPath` rules, and the resolved file (after following symbolic
/// links) must still be inside the package folder: nothing outside the package is ever read.
/// A path to the package's story.json opens its folder. When the folder itself is the problem (it does
/// not exist, it is a file, it has no story.json) reads say so (`.notAStory`) rather than "not found".
public struct FolderStorySource: StorySource {
    /// The package folder, with symbolic links resolved.
    public let root: URL
    /// Largest file read, in bytes.
    public let maximumFileSize: Int

    public var location: String { root.path }
    public var isLocal: Bool { true }

    public init(folder: String, maximumFileSize: Int = 16 * 1024 * 1024) {
        var root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath()
        if root.lastPathComponent == "story.json", Self.kind(of: root.path) == .file { root.deleteLastPathComponent() }
        self.root = root
        self.maximumFileSize = maximumFileSize
    }

    /// What is at a path, following symbolic links.
    private enum Kind: Equatable { case missing, folder, file, other(String) }

    private static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .other(String(cString: strerror(code)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other("not a folder")
        }
    }

    /// Why `path` cannot be a folder of stories or a story folder, or nil when it is a folder.
    public static func folderProblem(_ path: String) -> String? {
        switch kind(of: path) {
        case .folder: nil
        case .missing: "there is no such folder"
        case .file: "it is a file, not a folder"
        case .other(let reason): reason
        }
    }

    /// The reason a file the package should have is not there, when the package itself is the problem.
    private func missingStoryReason(for path: String) -> String? {
        switch Self.kind(of: root.path) {
        case .folder: return path == "story.json" ? "the folder has no story.json" : nil
        case .missing: return "there is no such folder"
        case .file: return "it is a file, not a story folder"
        case .other(let reason): return reason
        }
    }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        try readSync(path)
    }

    /// The same as `read`, without suspending (the files are local).
    public func readSync(_ path: String) throws(StorySourceError) -> [UInt8] {
        let url = try resolve(path)
        // O_NONBLOCK: opening a named pipe would otherwise wait for a writer forever (it is then refused
        // as not a regular file); reads of a regular file are not changed by it.
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                if let reason = missingStoryReason(for: path) { throw .notAStory(path: path, reason: reason) }
                throw .notFound(path: path)
            }
            throw .io(path: path, message: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, message: "not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else { throw .tooLarge(path: path, limit: maximumFileSize, size: size) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + offset, size - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, message: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            offset += n
        }
        if offset < size { throw .truncated(path: path, expected: size, received: offset) }
        return bytes
    }

    /// True when the file exists inside the package.
    public func exists(_ path: String) -> Bool {
        guard let url = try? resolve(path) else { return false }
        var isDirectory = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory
    }

    private func resolve(_ path: String) throws(StorySourceError) -> URL {
        do {
            _ = try AssetPath(validating: path)
        } catch {
            throw .invalidPath(path: path, reason: error.description)
        }
        let candidate = root.appendingPathComponent(path).resolvingSymlinksInPath()
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard candidate.path.hasPrefix(rootPath) else {
            // AssetPath refuses `..`, so only a symbolic link can lead out.
            throw .invalidPath(path: path, reason: "it is a symbolic link that leads outside the story folder")
        }
        return candidate
    }
}
