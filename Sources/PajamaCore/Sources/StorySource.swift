/// Where a story package's files come from: a folder on disk or a base URL (the network tier).
///
/// Paths are relative to the package root (`story.json`, `beats/forest.json`, `assets/wolf.ogg`) and
/// are checked with `AssetPath` rules by every implementation before anything is read.
public protocol StorySource: Sendable {
    /// The folder path or base URL, for messages.
    var location: String { get }
    /// True for a local folder: the disk cache is bypassed (the folder is already on disk).
    var isLocal: Bool { get }
    /// Reads one file of the package.
    func read(_ path: String) async throws(StorySourceError) -> [UInt8]
}

/// Why a source could not deliver a file.
public enum StorySourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist (a 404 over HTTP).
    case notFound(path: String)
    /// The path breaks the package rules (absolute, `..`, a URL, outside the package through a link).
    case invalidPath(path: String, reason: String)
    /// The file is larger than the source's limit.
    case tooLarge(path: String, limit: Int)
    /// The server answered with an error status (5xx, 403...).
    case httpStatus(path: String, status: Int)
    /// The body ended before its announced length.
    case truncated(path: String, expected: Int, received: Int)
    /// The request did not finish in time.
    case timeout(path: String)
    /// Any other network or file-system failure.
    case io(path: String, message: String)
    /// The read was cancelled.
    case cancelled(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .notFound(let p), .invalidPath(let p, _), .tooLarge(let p, _), .httpStatus(let p, _),
            .truncated(let p, _, _), .timeout(let p), .io(let p, _), .cancelled(let p):
            p
        }
    }

    public var description: String {
        switch self {
        case .notFound(let p): "\(p): not found"
        case .invalidPath(let p, let reason): "\(StoryFormatError.printable(p)): refused: \(reason)"
        case .tooLarge(let p, let limit): "\(p): larger than the \(limit)-byte limit"
        case .httpStatus(let p, let status): "\(p): the server answered HTTP \(status)"
        case .truncated(let p, let expected, let received): "\(p): truncated (\(received) of \(expected) bytes)"
        case .timeout(let p): "\(p): timed out"
        case .io(let p, let message): "\(p): \(message)"
        case .cancelled(let p): "\(p): cancelled"
        }
    }
}
