import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong, in words, for a message or a log line: Foundation's `localizedDescription` is not in
/// FoundationEssentials, and where it was, a file error read "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)". A file error says the system's reason and the file; an error that
/// describes itself (`LocalizedError`, `CustomStringConvertible`) says that.
public func errorText(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let said = localized.errorDescription { return said }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = error as? CocoaError {
        let reason: String
        if let posix = cocoa.underlying as? POSIXError {
            reason = String(cString: strerror(posix.code.rawValue))
        } else {
            reason = cocoaReasons[cocoa.code.rawValue] ?? "file error \(cocoa.code.rawValue)"
        }
        return cocoa.filePath.map { "\(reason) (\($0))" } ?? reason
    }
    if let described = error as? any CustomStringConvertible { return described.description }
    return String(describing: error)
}

/// Foundation's file error codes, for an error without a system reason beneath it.
private let cocoaReasons: [Int: String] = [
    4: "No such file or directory", 255: "The file is locked", 256: "The file could not be read",
    257: "Permission denied", 258: "The file name is not valid", 260: "No such file or directory",
    261: "The file is not in the expected encoding", 512: "The file could not be written",
    513: "Permission denied", 514: "The file name is not valid", 516: "The file already exists",
    517: "The file could not be written in that encoding", 640: "No space left on the device",
    642: "The volume is read-only",
]
