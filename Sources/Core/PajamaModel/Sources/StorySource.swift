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
    /// Reads one file of the package, calling `progress` as its bytes arrive (a source that reads a file
    /// at once, like a folder, need not call it at all).
    func read(_ path: String, progress: @escaping @Sendable (TransferProgress) -> Void) async throws(StorySourceError) -> [UInt8]
    /// True when the source makes its beats as they are read (an ink story): they are not kept in the disk
    /// cache (the source must see every beat it serves, to know the beats that follow).
    var makesBeats: Bool { get }
    /// The beat `id` as a source that makes its beats made it (`makesBeats`), handed over as it is rather
    /// than written as `beats/<id>.json` for the storage tier to parse again (`StoryDecoder.check` holds it
    /// to the same rules). nil for a source of files: its beats are read.
    func madeBeat(_ id: String) async throws(StorySourceError) -> Beat?
    /// Makes the source know the beat `origin` leads to again (a resumed reading of an ink story).
    func restore(_ origin: BeatOrigin) async -> OriginRestore
    /// `pajama validate` of a source that makes its beats (an ink story checks its own file and tags); nil for a
    /// source of files, whose files `StoryValidator` reads and checks.
    func validateItself(probe: any AssetProbe) async -> ValidationReport?
}

extension StorySource {
    public var makesBeats: Bool { false }

    public func madeBeat(_ id: String) async throws(StorySourceError) -> Beat? { nil }

    public func restore(_ origin: BeatOrigin) async -> OriginRestore { .restored }

    public func validateItself(probe: any AssetProbe) async -> ValidationReport? { nil }

    public func read(_ path: String, progress: @escaping @Sendable (TransferProgress) -> Void) async throws(StorySourceError) -> [UInt8] {
        try await read(path)
    }
}

/// A story made from files of its own beside its pictures and sounds (an ink story, a Twine story): the
/// files in `base`. A co-reading host serves them and its followers open the same (docs/coreading.md).
public protocol StoryFilesSource: StorySource {
    /// The folder or base URL the files are in.
    var base: any StorySource { get }
    /// The story's files in `base`.
    var storyFiles: [String] { get }
    /// The name of the story's format (`StoryFormat.name`: "ink", "twine"), which a co-reading welcome names.
    var formatName: String { get }
}

/// How far one read has come.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes of the file received so far (a resumed read counts what it already had).
    public var received: Int
    /// The file's size, when the source knows it.
    public var expected: Int?

    public init(received: Int, expected: Int?) {
        self.received = received
        self.expected = expected
    }
}

/// Why a source could not deliver a file.
public enum StorySourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist (a 404 over HTTP).
    case notFound(path: String)
    /// The path breaks the package rules (absolute, `..`, a URL, outside the package through a link).
    case invalidPath(path: String, reason: String)
    /// The file is larger than the source's limit (`size` when known before reading it all).
    case tooLarge(path: String, limit: Int, size: Int? = nil)
    /// The server answered with an error status (5xx, 403, 401...; 404 and 410 are `.notFound`).
    case httpStatus(path: String, status: Int)
    /// The body ended before its announced length.
    case truncated(path: String, expected: Int, received: Int)
    /// No byte of the answer arrived for `idle` (the server or the network stalled).
    case timeout(path: String, idle: Duration)
    /// No connection could be made to the server: refused, no such host, network unreachable (`reason`
    /// says which, with the address). Known at once, and not tried again by itself.
    case unreachable(path: String, reason: String)
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
            .truncated(let p, _, _), .timeout(let p, _), .unreachable(let p, _), .io(let p, _), .cancelled(let p),
            .notAStory(let p, _):
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
        case .httpStatus(_, let status): Self.statusText(status)
        case .truncated(_, let expected, let received): "truncated (\(received) of \(expected) bytes)"
        case .timeout(_, let idle): "timed out: no data arrived for \(Self.seconds(idle))"
        case .unreachable(_, let reason): reason
        case .io(_, let message): message
        case .cancelled: "cancelled"
        case .notAStory(_, let reason): reason
        }
    }

    public var description: String {
        if case .notAStory(_, let reason) = self { return reason }
        return "\(StoryFormatError.printable(path)): \(reason)"
    }

    /// Whether an HTTP status is the server refusing (401, 403, other 4xx) rather than failing (5xx, 408,
    /// 429: worth another try). 404 and 410 are `.notFound`, never this.
    public static func isRefusal(_ status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    /// What an error status means, in words, with the status: "refused by the server (HTTP 403)".
    public static func statusText(_ status: Int) -> String {
        isRefusal(status) ? "refused by the server (HTTP \(status))" : "the server failed (HTTP \(status))"
    }

    /// "10 s", "0.5 s".
    public static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        let value = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\((value * 10).rounded() / 10) s"
    }
}
