import FoundationEssentials
import Glibc
import PajamaBasics
import NIOCore
import NIOPosix
import PajamaModel
import PajamaStoryFormat

/// The story package folder, read-only, and only what the story declares (its format's `packageFiles`: for
/// Pajama's own, story.json, the beats reachable from it and the assets they name; for ink or Twine, the
/// story's files and the assets they name). Never a dotfile, never a file reached through a link that leaves
/// the folder, never more than the format's size limits (16 MB for an asset). The set is read once, when the
/// host starts.
///
/// A file is opened and checked (a regular file, its size, its ETag from size and modification time) and
/// then streamed from disk in chunks on NIO's thread pool: never read whole, never copied, and never held
/// open between chunks (`OpenFile`).
struct PackageFiles: Sendable {
    /// The largest asset served (the HTTP source's own response limit).
    static let maximumAssetSize = 16 << 20
    static let chunkSize = 64 * 1024

    /// The folder, with links resolved.
    let root: URL
    /// Every path the package declares, relative to the folder, with its size limit.
    let declared: [String: Int]

    init(folder: URL, declaring files: PackageFileSet) {
        root = folder.standardizedFileURL.resolvingSymlinksInPath()
        var declared = files.storyFiles
        for asset in files.assets where declared[asset.value] == nil { declared[asset.value] = Self.maximumAssetSize }
        self.declared = declared.filter { !$0.key.split(separator: "/").contains { $0.hasPrefix(".") } }
    }

    /// A file checked for serving: which file (its resolved path, device and inode), its size and ETag. It
    /// holds no descriptor: each chunk opens the file, checks it is still the same one, reads and closes it,
    /// so the descriptors downloads hold at once are at most the threads reading a chunk, whatever the
    /// downloads (a follower that reads nothing holds only its socket; issue 42).
    struct OpenFile: Sendable {
        let path: String
        let device: UInt64
        let inode: UInt64
        let size: Int
        /// A strong validator: the file's size and modification time (seconds and nanoseconds).
        let etag: String

        /// The chunk of at most `PackageFiles.chunkSize` bytes at `offset`, read on NIO's thread pool straight
        /// into its buffer; an error if the file is no longer the one checked (replaced, resized, touched).
        func chunk(at offset: Int) async throws -> ByteBuffer {
            let file = self
            let length = min(PackageFiles.chunkSize, size - offset)
            return try await NIOThreadPool.singleton.runIfActive { () throws -> ByteBuffer in
                let fd = Glibc.open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                guard fd >= 0 else { throw ReadError(reason: "cannot open it again: \(String(cString: strerror(errno)))") }
                defer { Glibc.close(fd) }
                var info = stat()
                guard fstat(fd, &info) == 0, UInt64(info.st_dev) == file.device, UInt64(info.st_ino) == file.inode,
                      PackageFiles.etag(info) == file.etag else { throw ReadError(reason: "the file changed while it was served") }
                var buffer = ByteBufferAllocator().buffer(capacity: length)
                try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { raw -> Int in
                    let n = pread(fd, raw.baseAddress, length, off_t(offset))
                    guard n > 0 else { throw ReadError(reason: n == 0 ? "the file got shorter" : String(cString: strerror(errno))) }
                    return n
                }
                return buffer
            }
        }
    }

    /// A file's ETag: its size and modification time.
    static func etag(_ info: stat) -> String {
        "\"\(String(info.st_size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))-\(String(info.st_mtim.tv_nsec, radix: 16))\""
    }

    struct ReadError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    enum Answer {
        case file(OpenFile)
        case notFound
        /// Not a file of the story (undeclared, hidden): answered as not found, and logged with the reason.
        case undeclared(String)
        case refused(String)
    }

    /// The file at `requestPath` (the URL's path, percent-encoded, with its leading `/`), opened.
    func open(requestPath: String) -> Answer {
        let raw = String(requestPath.drop { $0 == "/" })
        guard let decoded = raw.percentDecoded else { return .refused("the path is not valid percent-encoding") }
        do {
            _ = try AssetPath(validating: decoded)
        } catch {
            return raw.isEmpty ? .notFound : .refused("\(error)")
        }
        if decoded.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return .undeclared("hidden files are not served") }
        guard let limit = declared[decoded] else { return .undeclared("not a file of the story (story.json, its beats and the assets they name)") }
        let url = root.appendingPathComponent(decoded).resolvingSymlinksInPath()
        guard url.path.hasPrefix(root.path + "/") else { return .refused("the path leads outside the story folder") }
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .notFound : .refused(String(cString: strerror(code)))
        }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .refused("not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else { return .refused("the file is \(ByteSize.text(size)), over the limit of \(ByteSize.text(limit))") }
        return .file(OpenFile(path: url.path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: size, etag: Self.etag(info)))
    }

    /// The declared files there now, each within its limit, with its size: beats first, then the rest, each
    /// part by path (what a follower fetches to read on alone, `PackageDownload`).
    func listing() -> PackageListing {
        var files: [PackageListing.File] = []
        for (path, limit) in declared {
            let url = root.appendingPathComponent(path).resolvingSymlinksInPath()
            var info = stat()
            guard url.path.hasPrefix(root.path + "/"), stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  Int(info.st_size) <= limit else { continue }
            files.append(PackageListing.File(path: path, size: Int(info.st_size)))
        }
        func rank(_ file: PackageListing.File) -> (Int, String) { (file.path.hasPrefix("beats/") ? 0 : 1, file.path) }
        return PackageListing(files: files.sorted { rank($0) < rank($1) })
    }
}
