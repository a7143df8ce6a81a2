import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Where a transcript goes: a file it is appended to (created if missing), or standard output (`-`).
public final class TranscriptFile: Sendable {
    /// The file as named on the command line (`-`: standard output), for messages.
    public let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` to append to (`-`: standard output), or says why it cannot.
    public init(path: String) throws(TranscriptFileError) {
        name = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
            return
        }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TranscriptFileError(file: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
        ownsDescriptor = true
    }

    /// Appends `text`; the reason when it could not be written whole.
    public func append(_ text: String) -> TranscriptFileError? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return TranscriptFileError(file: name, reason: String(cString: strerror(errno)))
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }

    deinit {
        if ownsDescriptor { Glibc.close(descriptor) }
    }
}

/// A transcript that cannot be written, with the file and the system's reason.
public struct TranscriptFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String
    public var description: String { "cannot write the transcript \(StoryFormatError.printable(file)): \(reason)" }
}
