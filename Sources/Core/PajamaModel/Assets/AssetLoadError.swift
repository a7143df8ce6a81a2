/// The one error for every kind of load (beats, images, sounds), with a message a reader understands.
public struct AssetLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case notFound, network, decoding, cancelled, timeout, invalidFormat, tooLarge
        /// The server refused the request (HTTP 401, 403 and other 4xx but 404/410): asking again will not help.
        case refused
        /// The server failed (HTTP 5xx, 408, 429): it may recover.
        case serverError
        /// The package's rules forbid reading the file (a symbolic link that leads outside the story folder).
        case forbiddenPath
        /// What was given is not a story: no such folder, a file, a folder without story.json.
        case notAStory
        /// No connection could be made to the server (refused, no such host, unreachable): said at once,
        /// not retried by itself (the reader's retry key asks again).
        case unreachable
        /// A sound that is not played because sound is off (no sound server, or `--no-sound`): not a failure of
        /// the story, said once by the sound engine, not once per sound; not retried.
        case soundOff
    }

    public var kind: Kind
    /// What failed to load: a beat id or an asset path.
    public var subject: String
    /// Technical detail (the server's status, the decoder's message).
    public var detail: String

    public init(_ kind: Kind, subject: String, detail: String = "") {
        self.kind = kind
        self.subject = subject
        self.detail = detail
    }

    /// Worth trying again: the network or a timeout may recover; a missing or broken file will not
    /// until it changes (a reader may still ask to retry).
    public var isTransient: Bool { kind == .network || kind == .timeout || kind == .serverError }

    /// One sentence for the reader.
    public var readerMessage: String {
        let what = StoryFormatError.printable(subject)
        switch kind {
        case .notFound: return "\(what) is missing from the story."
        case .network: return "\(what) could not be read."  // the detail says why: the network, the disk
        case .refused: return "\(what) was refused by the server\(detailInParentheses)."
        case .serverError: return "\(what) could not be fetched: the server failed\(detailInParentheses)."
        case .decoding: return "\(what) could not be decoded."
        case .cancelled: return "Loading \(what) was cancelled."
        case .timeout: return detail.isEmpty ? "\(what) took too long to load." : "\(what) timed out: \(printableDetail)."
        case .invalidFormat: return "\(what) is not in a format Pajama can use."
        case .tooLarge: return detail.isEmpty ? "\(what) is too large." : "\(what) is too large: \(StoryFormatError.printable(detail, limit: 200))."
        case .forbiddenPath: return "\(what) cannot be used: \(StoryFormatError.printable(detail, limit: 200))."
        case .notAStory: return "\(StoryFormatError.printable(detail, limit: 200))."
        case .unreachable: return "\(what) could not be fetched: \(printableDetail)."
        case .soundOff: return "\(what) is not played: sound is off."
        }
    }

    public var description: String {
        detail.isEmpty || detailIsInMessage ? readerMessage : readerMessage + " (" + printableDetail + ")"
    }

    /// Kinds whose reader message already says the detail (the HTTP status, how long nothing arrived).
    private var detailIsInMessage: Bool {
        [.refused, .serverError, .timeout, .tooLarge, .forbiddenPath, .notAStory, .unreachable].contains(kind)
    }
    private var printableDetail: String { StoryFormatError.printable(detail, limit: 200) }
    private var detailInParentheses: String { detail.isEmpty ? "" : " (" + printableDetail + ")" }

    /// Maps a source failure onto the shared kinds.
    public init(_ error: StorySourceError) {
        switch error {
        case .notFound(let p): self.init(.notFound, subject: p)
        case .invalidPath(let p, let reason): self.init(.forbiddenPath, subject: p, detail: reason)
        case .tooLarge(let p, _, _):
            self.init(.tooLarge, subject: p, detail: String(error.reason.dropFirst("too large: ".count)))
        case .httpStatus(let p, let status):
            self.init(StorySourceError.isRefusal(status) ? .refused : .serverError, subject: p, detail: "HTTP \(status)")
        case .truncated(let p, let expected, let received):
            self.init(.network, subject: p, detail: "truncated: \(received) of \(expected) bytes")
        case .timeout(let p, let idle): self.init(.timeout, subject: p, detail: "no data arrived for \(StorySourceError.seconds(idle))")
        case .unreachable(let p, let reason): self.init(.unreachable, subject: p, detail: reason)
        case .io(let p, let message): self.init(.network, subject: p, detail: message)
        case .cancelled(let p): self.init(.cancelled, subject: p)
        case .notAStory(let p, let reason): self.init(.notAStory, subject: p, detail: reason)
        }
    }
}
