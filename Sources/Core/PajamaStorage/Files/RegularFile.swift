import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Reading one of the reader's own files (saved progress, a disk-cache entry) whatever is at its path:
/// only a regular file is read, never waiting (a named pipe would block `open` until a writer came),
/// and never more than `limit` bytes.
public enum RegularFile {
    public enum Outcome: Equatable, Sendable {
        case missing
        case bytes([UInt8])
        /// Something is there but cannot be used, and why.
        case unusable(String)
    }

    /// A file of `size` bytes over `limit`, in words ("too large: 2 KB, the limit is 1 KB").
    public static func tooLarge(_ size: Int, limit: Int) -> Outcome {
        .unusable("too large: \(ByteSize.text(size)), the limit is \(ByteSize.text(limit))")
    }

    public static func read(_ path: String, limit: Int) -> Outcome {
        read(path, limit: limit, head: nil)
    }

    /// At most the first `count` bytes of the regular file at `path`, whatever its size.
    public static func head(_ path: String, count: Int) -> Outcome {
        read(path, limit: .max, head: count)
    }

    private static func read(_ path: String, limit: Int, head: Int?) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unusable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unusable(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .unusable("not a regular file") }
        let size = min(Int(info.st_size), head ?? .max)
        guard size <= limit else { return tooLarge(size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, size - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return .unusable(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            offset += n
        }
        return .bytes(offset < size ? Array(bytes[..<offset]) : bytes)
    }
}
