import Foundation

/// A story package in a folder on disk.
///
/// Every path is validated with `AssetPath` rules, and the resolved file (after following symbolic
/// links) must still be inside the package folder: nothing outside the package is ever read.
public struct FolderStorySource: StorySource {
    /// The package folder, with symbolic links resolved.
    public let root: URL
    /// Largest file read, in bytes.
    public let maximumFileSize: Int

    public var location: String { root.path }
    public var isLocal: Bool { true }

    public init(folder: String, maximumFileSize: Int = 16 * 1024 * 1024) {
        self.root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath()
        self.maximumFileSize = maximumFileSize
    }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        try readSync(path)
    }

    /// The same as `read`, without suspending (the files are local).
    public func readSync(_ path: String) throws(StorySourceError) -> [UInt8] {
        let url = try resolve(path)
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
            throw .io(path: path, message: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, message: "not a regular file") }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else { throw .tooLarge(path: path, limit: maximumFileSize) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(fd, buffer.baseAddress! + offset, size - offset)
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
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
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
            throw .invalidPath(path: path, reason: "it leads outside the story folder")
        }
        return candidate
    }
}
