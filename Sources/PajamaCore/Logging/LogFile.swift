import Foundation

/// The file the log's records are appended to, shared by every `FileLogHandler` of a process.
///
/// One line per `append`, written with a single `write(2)` on a descriptor opened with `O_APPEND`. When
/// a line would take the file past `maximumBytes`, the file is renamed to `pajama.log.1` (replacing the
/// older one) and a new file is started: the log keeps at most about twice `maximumBytes`. Failing to
/// create the folder, open, write or rotate never throws and never waits: the record is dropped, and the
/// file is tried again at the next record (the reader goes on; its log is only for looking back).
public final class LogFile: @unchecked Sendable {
    // Safe: `descriptor` and `size` are only touched with `lock` held.
    public let url: URL
    public let maximumBytes: Int
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var size = 0

    /// Rotation at 1 MB by default, keeping one older file.
    public static let defaultMaximumBytes = 1 << 20

    public init(url: URL, maximumBytes: Int = LogFile.defaultMaximumBytes) {
        self.url = url
        self.maximumBytes = max(1, maximumBytes)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The older file kept by rotation: `pajama.log.1` beside `pajama.log`.
    public var previousURL: URL { url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".1") }

    /// Appends `line` (which ends with a newline); returns false when it could not be written.
    @discardableResult
    public func append(_ line: String) -> Bool {
        let bytes = Array(line.utf8)
        return lock.withLock {
            if descriptor < 0 { openFile() }
            if descriptor >= 0, size > 0, size + bytes.count > maximumBytes { rotate() }
            guard descriptor >= 0 else { return false }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                // A full disk or a vanished file: start over with the next record.
                close(descriptor)
                descriptor = -1
                return false
            }
            size += written
            return true
        }
    }

    /// Opens (creating the folder and the file when missing) and notes the file's size.
    private func openFile() {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var status = stat()
        size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        descriptor = fd
    }

    /// Moves the full file aside (replacing the older one) and starts a new one.
    private func rotate() {
        close(descriptor)
        descriptor = -1
        _ = rename(url.path, previousURL.path)
        openFile()
    }
}
