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
    /// The file is larger than the source's limit (`size` when known before reading it all).
    case tooLarge(path: String, limit: Int, size: Int? = nil)
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
    /// The story itself is not there: no such folder, a file given for a folder, a folder without
    /// story.json (`path` is the file that was asked for).
    case notAStory(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .notFound(let p), .invalidPath(let p, _), .tooLarge(let p, _, _), .httpStatus(let p, _),
            .truncated(let p, _, _), .timeout(let p), .io(let p, _), .cancelled(let p), .notAStory(let p, _):
            p
        }
    }

    /// Why, without the path: the same words in `pajama validate` and on the reader's error screen.
    public var reason: String {
        switch self {
        case .notFound: "not found"
        case .invalidPath(_, let reason): reason
        case .tooLarge(_, let limit, let size):
            size.map { "too large: \(ByteSize.text($0)), the limit is \(ByteSize.text(limit))" }
                ?? "too large: over the limit of \(ByteSize.text(limit))"
        case .httpStatus(_, let status): "the server answered HTTP \(status)"
        case .truncated(_, let expected, let received): "truncated (\(received) of \(expected) bytes)"
        case .timeout: "timed out"
        case .io(_, let message): message
        case .cancelled: "cancelled"
        case .notAStory(_, let reason): reason
        }
    }

    public var description: String {
        if case .notAStory(_, let reason) = self { return reason }
        return "\(StoryFormatError.printable(path)): \(reason)"
    }
}
