import HTTPTypes
import PajamaBasics
import HummingbirdCore
import NIOCore
import PajamaModel

/// The host's HTTP side: who may ask (the token, an address slowed down for wrong tokens), what they get
/// (the package's declared files, streamed, with ETags), and why not (401, 403, 404, 405, 429, 503 "the
/// session is full"). A refusal closes the connection. Every line it logs names the peer's address and
/// cuts what the peer wrote.
struct HostRequests: Sendable {
    let access: HostAccess
    let throttle: WrongTokenThrottle
    /// Nil when the story is on a web server: this host serves only the session.
    let files: PackageFiles?
    let storyURL: String
    let sockets: FollowerSockets
    let log: HostLog
    /// How long a download may make no progress (`HostLimits.downloadStallTimeout`).
    let stallTimeout: Duration
    /// Where the votes of followers at a relay node go (`POST /session/vote`, proxied by the node): the
    /// voter's id and its `vote`; nil when the session takes none that way.
    var relayVotes: (@Sendable (_ voter: String, _ location: StoryLocation, _ choice: Int?) async -> Void)?

    /// Where a relay node's followers vote: the node proxies it here with the token.
    static let votePath = "/session/vote"
    /// The header naming a relay follower's voter (`FollowerBallot.voter`): 16 to 64 of `0-9a-f`.
    static let voterHeader = HTTPField.Name("X-Pajama-Voter")!
    /// The file bodies being written now.
    let downloads = Counter()

    /// A count several connections change at once.
    final class Counter: Sendable {
        private let value = Locked(0)
        var current: Int { value.withLock { $0 } }
        func add(_ change: Int) { value.withLock { $0 += change } }
    }

    /// Thrown after a refusal is written: Hummingbird then closes the connection.
    struct CloseConnection: Error {}

    /// Whether a request to upgrade to the session's socket becomes one (checked again by `respond` when
    /// not, which says why).
    /// The right token is let in even from an address slowed down for wrong ones (`WrongTokenThrottle`).
    func admitsSocket(target: String, authorization: String?, peer: String) -> Bool {
        access.admits(authorization: authorization, target: target) && sockets.hasRoom
    }

    /// What a request gets.
    private enum Reply {
        /// A refusal: its status, a line of text, extra headers; the connection is closed after it.
        case refusal(HTTPResponse.Status, String, HTTPFields)
        case notFound
        case notModified(String)
        case file(PackageFiles.OpenFile, body: Bool)
        /// The package's files and sizes (`PackageListing`), JSON.
        case listing(ByteBuffer, body: Bool)
        /// A relay follower's vote, its token checked: counted, then 204.
        case vote
    }

    func respond(_ request: Request, _ writer: consuming ResponseWriter, _ channel: any Channel) async throws {
        switch reply(to: request, peer: HostChannel.describe(channel.remoteAddress)) {
        case .refusal(let status, let text, let extra):
            let body = ByteBuffer(string: text + "\n")
            var fields = extra
            fields[.connection] = "close"
            try await writer.write(response: Self.head(status, length: body.readableBytes, extra: fields), body: .init(byteBuffer: body))
            throw CloseConnection()
        case .vote:
            try await vote(request, writer, peer: HostChannel.describe(channel.remoteAddress))
        case .notFound:
            let body = ByteBuffer(string: "not found\n")
            try await writer.write(response: Self.head(.notFound, length: body.readableBytes), body: .init(byteBuffer: body))
        case .listing(let json, let withBody):
            let head = Self.head(.ok, length: json.readableBytes, type: "application/json", extra: [.cacheControl: "no-cache"])
            guard withBody else { return try await writer.writeResponse(head) }
            try await writer.write(response: head, body: .init(byteBuffer: json))
        case .notModified(let etag):
            try await writer.writeResponse(HTTPResponse(status: .notModified, headerFields: [.eTag: etag]))
        case .file(let file, let withBody):
            let head = Self.head(.ok, length: file.size, type: "application/octet-stream", extra: [.eTag: file.etag, .cacheControl: "no-cache"])
            guard withBody, file.size > 0 else { return try await writer.writeResponse(head) }
            downloads.add(1)
            defer { downloads.add(-1) }
            var body = try await writer.writeHead(head)
            var offset = 0
            let peer = HostChannel.describe(channel.remoteAddress)
            let stalled = StallWatch(channel: channel, timeout: stallTimeout)
            while offset < file.size {
                let chunk: ByteBuffer
                do {
                    chunk = try await file.chunk(at: offset)
                } catch {
                    log("stopped sending \(HostLog.shown(request.uri.path)) to \(peer): \(error)")
                    throw CloseConnection()
                }
                offset += chunk.readableBytes
                // A chunk the client takes no byte of for `stallTimeout` closes the connection: the write
                // waits while the socket's buffer is full (NIO's backpressure), so one chunk at most is held.
                let watch = stalled.arm()
                do {
                    try await body.write(chunk)
                    // The write is handed to the event loop and returns at once, judged by the channel's
                    // writability as last seen: without this turn of the loop, chunks read faster than the
                    // loop writes them pile up in its queue (40 downloads that read nothing: 179 MB).
                    try await channel.eventLoop.submit {}.get()
                    watch.cancel()
                } catch {
                    watch.cancel()
                    if stalled.fired {
                        log("closed a download of \(HostLog.shown(request.uri.path)) to \(peer): "
                            + "no progress in \(HostLog.seconds(stallTimeout)) (\(ByteSize.text(offset - chunk.readableBytes)) of \(ByteSize.text(file.size)) sent)")
                    }
                    throw error
                }
            }
            try await body.finish(nil)
        }
    }

    /// Decides what `request` from `peer` gets (and logs a refusal worth a line).
    private func reply(to request: Request, peer: String) -> Reply {
        let target = request.uri.description
        let path = request.uri.path
        let shownPath = HostLog.shown(path)
        let voting = path == Self.votePath && relayVotes != nil
        guard request.method == .get || request.method == .head || (voting && request.method == .post) else {
            return voting ? .refusal(.methodNotAllowed, "a vote is a POST", [.allow: "POST"])
                : .refusal(.methodNotAllowed, "only GET and HEAD", [.allow: "GET, HEAD"])
        }
        guard access.admits(authorization: request.headers[.authorization], target: target) else {
            // An address slowed down gets 429 for a wrong or missing token, without a line of its own; the right
            // token is never refused for what others at the same address tried (docs/security.md, "Wrong tokens").
            if case .paused(let left) = throttle.verdict(for: peer) {
                let seconds = max(1, Int((Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18).rounded(.up)))
                return .refusal(.tooManyRequests, "too many wrong tokens from \(peer): try again in \(seconds) s", [.retryAfter: "\(seconds)"])
            }
            let reason = HostAccess.triedAToken(authorization: request.headers[.authorization], target: target) ? "wrong token" : "no token"
            log("refused \(request.method) \(shownPath) from \(peer): \(reason) (HTTP 401)")
            if let line = throttle.wrong(from: peer) { log(line) }
            return .refusal(.unauthorized, "the host refused the token", [.wwwAuthenticate: "Bearer"])
        }
        if voting { return request.method == .post ? .vote : .refusal(.methodNotAllowed, "a vote is a POST", [.allow: "POST"]) }
        if path == "/session" {
            guard sockets.hasRoom else {
                log("refused a follower from \(peer): the session is full (\(sockets.joined) following) (HTTP 503)")
                return .refusal(.serviceUnavailable, "the session is full (\(sockets.joined) following)", [:])
            }
            return .refusal(.badRequest, "the session is a WebSocket (pajama join connects to it)", [:])
        }
        guard let files else { return .refusal(.notFound, "this host serves only the session; the story is at \(storyURL)", [:]) }
        if path == "/" + PackageListing.path {
            return .listing(ByteBuffer(bytes: files.listing().encoded()), body: request.method == .get)
        }
        switch files.open(requestPath: path) {
        case .notFound:
            return .notFound
        case .undeclared(let reason):
            log("refused \(request.method) \(shownPath) from \(peer): \(reason) (HTTP 404)")
            return .refusal(.notFound, "not found: \(reason)", [:])
        case .refused(let reason):
            log("refused \(request.method) \(shownPath) from \(peer): \(reason) (HTTP 403)")
            return .refusal(.forbidden, reason, [:])
        case .file(let file):
            let tags = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",").map { $0.trimmingSpaces } }
            if tags.contains(file.etag) || tags.contains("*") {
                return .notModified(file.etag)
            }
            return .file(file, body: request.method == .get)
        }
    }

    /// A relay follower's vote (the token checked): its voter named by `voterHeader`, its body one `vote`
    /// message of at most 1 KB; counted, then 204. Anything else is refused with the reason.
    private func vote(_ request: Request, _ writer: consuming ResponseWriter, peer: String) async throws {
        var refusal: String?
        let voter = request.headers[Self.voterHeader] ?? ""
        if !(16...64).contains(voter.utf8.count) || !voter.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
            refusal = "a vote names its voter (\(Self.voterHeader): 16 to 64 hex digits)"
        } else if let body = try? await request.body.collect(upTo: 1024) {
            switch SessionCodec.parse(String(buffer: body)) {
            case .success(.vote(let location, let choice)): await relayVotes?(voter, location, choice)
            case .success(let other): refusal = "a vote is a vote message, not \(other.type)"
            case .failure(let problem): refusal = problem.description
            }
        } else {
            refusal = "a vote is at most 1 KB"
        }
        if let refusal {
            log("refused a vote from \(peer): \(refusal) (HTTP 400)")
            let body = ByteBuffer(string: refusal + "\n")
            try await writer.write(response: Self.head(.badRequest, length: body.readableBytes), body: .init(byteBuffer: body))
            return
        }
        try await writer.writeResponse(Self.head(.noContent, length: 0))
    }

    private static func head(_ status: HTTPResponse.Status, length: Int, type: String = "text/plain; charset=utf-8",
                             extra: HTTPFields = [:]) -> HTTPResponse {
        var fields: HTTPFields = [.contentType: type, .contentLength: "\(length)"]
        fields.append(contentsOf: extra)
        return HTTPResponse(status: status, headerFields: fields)
    }
}
