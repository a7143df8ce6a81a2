import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// The file the log's records are appended to, shared by every `FileLogHandler` of a process.
///
/// One line per `append`, written with a single `write(2)` on a descriptor opened with `O_APPEND`. When
/// a line would take the file past `maximumBytes`, the file is renamed to `pajama.log.1` (replacing the
/// older one) and a new file is started: the log keeps at most about twice `maximumBytes`. Failing to
/// create the folder, open, write or rotate never throws and never waits: the record is dropped, and the
/// file is tried again at the next record (the reader goes on; its log is only for looking back).
public final class LogFile: Sendable {
    public let url: URL
    public let maximumBytes: Int

    /// The open file (-1: none) and its size.
    private struct Open {
        var descriptor: Int32 = -1
        var size = 0
    }

    private let file = Locked(Open())

    /// Rotation at 1 MB by default, keeping one older file.
    public static let defaultMaximumBytes = 1 << 20

    public init(url: URL, maximumBytes: Int = LogFile.defaultMaximumBytes) {
        self.url = url
        self.maximumBytes = max(1, maximumBytes)
    }

    deinit {
        file.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// The older file kept by rotation: `pajama.log.1` beside `pajama.log`.
    public var previousURL: URL { url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".1") }

    /// Appends `line` (which ends with a newline); returns false when it could not be written.
    @discardableResult
    public func append(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        return file.withLock { file in
            if file.descriptor < 0 { openFile(&file) }
            if file.descriptor >= 0, file.size > 0, file.size + bytes.count > maximumBytes { rotate(&file) }
            guard file.descriptor >= 0 else { return false }
            let descriptor = file.descriptor
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                // A full disk or a vanished file: start over with the next record.
                close(file.descriptor)
                file.descriptor = -1
                return false
            }
            file.size += written
            return true
        }
    }

    /// Opens (creating the folder and the file when missing) and notes the file's size.
    private func openFile(_ file: inout Open) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var status = stat()
        file.size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        file.descriptor = fd
    }

    /// Moves the full file aside (replacing the older one) and starts a new one.
    private func rotate(_ file: inout Open) {
        close(file.descriptor)
        file.descriptor = -1
        _ = rename(url.path, previousURL.path)
        openFile(&file)
    }
}
