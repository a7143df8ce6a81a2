import FoundationEssentials
import Glibc

/// An error in words a reader understands: a file error as the system says it ("/a/b: No such file or
/// directory"), anything else as it describes itself. What Foundation's `localizedDescription` was used for;
/// FoundationEssentials has no localised descriptions, and its `CocoaError` describes itself as a struct dump.
public func errorText(_ error: any Error) -> String {
    if let error = error as? CocoaError {
        let path = (error.userInfo["NSFilePath"] as? String) ?? (error.userInfo["NSURL"] as? URL)?.path
        let reason: String
        if let underlying = error.underlying as? POSIXError {
            reason = String(cString: strerror(underlying.code.rawValue))
        } else {
            reason = cocoaReason(error.code)
        }
        return path.map { "\($0): \(reason)" } ?? reason
    }
    if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
    return String(describing: error)
}

private func cocoaReason(_ code: CocoaError.Code) -> String {
    switch code {
    case .fileNoSuchFile, .fileReadNoSuchFile: "there is no such file"
    case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
    case .fileWriteOutOfSpace: "the disk is full"
    case .fileWriteFileExists: "a file of that name is already there"
    case .fileReadCorruptFile: "the file is damaged or not in the expected format"
    case .fileReadTooLarge: "the file is too large"
    case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: "the text is not in the expected encoding"
    case .fileWriteVolumeReadOnly: "the disk is read-only"
    default: "file error \(code.rawValue)"
    }
}
