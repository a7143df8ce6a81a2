import Foundation

/// Reading one of the reader's own files (saved progress, a disk-cache entry) whatever is at its path:
/// only a regular file is read, never waiting (a named pipe would block `open` until a writer came),
/// and never more than `limit` bytes.
enum RegularFile {
    enum Outcome: Equatable {
        case missing
        case bytes([UInt8])
        /// Something is there but cannot be used, and why.
        case unusable(String)
    }

    static func read(_ path: String, limit: Int) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unusable(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .unusable(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .unusable("not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else { return .unusable("too large: \(ByteSize.text(size)), the limit is \(ByteSize.text(limit))") }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + offset, size - offset) }
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
