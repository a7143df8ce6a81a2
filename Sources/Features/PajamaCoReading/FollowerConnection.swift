import AsyncHTTPClient
import FoundationEssentials
import Glibc
import PajamaBasics
import HTTPTypes
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import PajamaModel
import PajamaStorage
import PajamaHTTP
import WSClient

/// A follower's side of co-reading: the WebSocket to the host's `/session` (WSClient), as a stream of
/// `FollowerEvent`s. A dropped connection is tried again with backoff and catches up from the welcome;
/// a refused token, an unreachable host (before the first welcome) and a protocol problem end it.
///
/// The stream owns its task: ending the stream's iteration (or dropping it) cancels the connection.
public enum FollowerConnection {
    /// Connects to the host at `url` (the join URL, `http://HOST:PORT/` or `https://`) as `name`. For
    /// `https`, `tls` says whom to trust (`FollowerTLS.configuration`) and `client` asks the host why a
    /// socket was refused with the same trust (the process's one client, `HTTPStorySource.defaultClient`,
    /// otherwise). In a session that takes votes, `ballot`'s votes are sent on the socket.
    public static func connect(to url: URL, token: String, name: String, backoff: ReconnectBackoff = ReconnectBackoff(),
                               tls: TLSConfiguration? = nil, client: HTTPClient? = nil, ballot: FollowerBallot? = nil) -> AsyncStream<FollowerEvent> {
        let (events, input) = AsyncStream<FollowerEvent>.makeStream(bufferingPolicy: .unbounded)
        let link = Link(tls: tls, client: client ?? HTTPStorySource.defaultClient, ballot: ballot)
        let task = Task {
            await run(url: url, token: token, name: name, backoff: backoff, link: link, events: input)
            input.finish()
        }
        input.onTermination = { _ in task.cancel() }
        return events
    }

    /// How one connection ended.
    enum Outcome: Sendable, Equatable {
        case ended
        case tokenRefused
        /// Refused for good with this error (the session is full, the address is slowed down).
        case refused(FollowerError)
        case unreachable(String)
        /// The socket was refused for now (a relay node whose Redis link is down answers 503 to everyone):
        /// tried again with the backoff, before a welcome as after.
        case unavailable(String)
        case protocolProblem(String)
        /// Closed or cut after it was open; `welcomed` if a welcome arrived on it.
        case dropped(String, welcomed: Bool)
        /// A relay node (nchan) closed the socket because the follower said hello: it takes no message from
        /// a follower. The next connection says nothing.
        case relayWantsSilence
    }

    /// How a connection reaches the host: its TLS (nil for plain HTTP), the HTTP client of its probe, and
    /// the follower's votes to send (nil: it sends none).
    struct Link: Sendable {
        let tls: TLSConfiguration?
        let client: HTTPClient
        let ballot: FollowerBallot?
    }

    private static func run(url: URL, token: String, name: String, backoff: ReconnectBackoff, link: Link,
                            events: AsyncStream<FollowerEvent>.Continuation) async {
        let joinURL = url.absoluteString
        var welcomedOnce = false
        var attempt = 0
        var hello = true
        while !Task.isCancelled {
            let outcome = await once(url: url, token: token, name: name, hello: hello, link: link, events: events)
            let reason: String
            switch outcome {
            case .ended: return
            case .relayWantsSilence where hello:
                hello = false
                continue
            case .relayWantsSilence:
                events.yield(.failed(.protocolProblem(url: joinURL, reason: "the relay closed the socket (\(relayHelloRefusal))")))
                return
            case .tokenRefused:
                events.yield(.failed(.tokenRefused))
                return
            case .refused(let error):
                events.yield(.failed(error))
                return
            case .protocolProblem(let problem):
                events.yield(.failed(.protocolProblem(url: joinURL, reason: problem)))
                return
            case .unreachable(let problem):
                guard welcomedOnce else {
                    events.yield(.failed(.unreachable(url: joinURL, reason: problem)))
                    return
                }
                reason = problem
            case .unavailable(let problem):
                reason = problem
            case .dropped(let problem, let welcomed):
                if welcomed {
                    welcomedOnce = true
                    attempt = 0
                }
                reason = problem
            }
            if Task.isCancelled { return }
            attempt += 1
            guard attempt <= backoff.attempts else {
                events.yield(.failed(.lost(url: joinURL, attempts: backoff.attempts, reason: reason)))
                return
            }
            events.yield(.reconnecting(attempt: attempt, reason: reason))
            do {
                try await Task.sleep(for: backoff.delay(before: attempt))
            } catch {
                return
            }
        }
    }

    /// What the handler of one connection saw.
    private final class Seen: Sendable {
        struct Value {
            /// The socket was opened (the upgrade answered).
            var upgraded = false
            var welcomed = false
            var ended = false
            var problem: String?
            /// What came first, after the hello, was a relay node's (a welcome it carried, or anything but a
            /// welcome): the node closes the socket for the hello, and replays its messages on the next.
            var fromRelay = false
        }
        let value = Locked(Value())
    }

    /// One connection, until it closes.
    /// Whether `message`, the first on a connection that said hello, is a relay node's: a host answers a hello
    /// with a welcome of its own; a node has the owner's welcomes (marked `viaRelay`), cues and end.
    static func isRelays(_ message: SessionMessage) -> Bool {
        switch message {
        case .welcome(let welcome): return welcome.viaRelay
        case .hello: return false  // a host that says hello is refused as such below
        default: return true
        }
    }

    /// nchan's close reason for a message from a subscriber (a relay node takes none: `pajama join` says hello
    /// to a host, and nothing to a relay once it closed the socket with this).
    static let relayHelloRefusal = "Publish"

    private static func once(url: URL, token: String, name: String, hello: Bool, link: Link,
                             events: AsyncStream<FollowerEvent>.Continuation) async -> Outcome {
        let socketURL = URL(string: "session", relativeTo: url)?.absoluteURL.absoluteString ?? url.absoluteString
        var headers = WebSocketClientConfiguration().additionalHeaders
        headers[.authorization] = "Bearer \(token)"
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20, additionalHeaders: headers, closeTimeout: .seconds(1))
        // TLS refuses an IP address as the server's name (SNI); a host joined by address is named otherwise
        // (a pinned certificate is checked by its fingerprint, one signed by an authority by the addresses it
        // names on `FollowerTLS.configuration`'s own connection).
        if link.tls != nil, let host = url.host, FollowerTLS.isAddress(host) {
            configuration.sniHostname = "pajama-session"
        }
        let seen = Seen()
        let attempt = Task {
            try await WebSocketClient.connect(
                url: socketURL, configuration: configuration, tlsConfiguration: link.tls,
                logger: Logger(label: "pajama-follower", factory: { _ in SwiftLogNoOpLogHandler() })
            ) { inbound, outbound, _ in
                seen.value.withLock { $0.upgraded = true }
                if hello { try await outbound.write(.text(SessionCodec.encode(.hello(name: name, countOnly: true)))) }
                // The follower's votes, written by a task of this socket's own (a session that takes votes).
                var voting: (id: Int, writer: Task<Void, Never>)?
                defer {
                    if let voting {
                        voting.writer.cancel()
                        link.ballot?.detach(voting.id)
                    }
                }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    // After `end` the socket stays open while the follower reads on: the host serves the story's
                    // files to the followers still connected. It closes when the host stops or the follower quits.
                    if seen.value.withLock({ $0.ended }) { continue }
                    let parsed: Result<SessionMessage, SessionCodec.Problem>
                    switch message {
                    case .text(let text): parsed = SessionCodec.parse(text)
                    case .binary: parsed = .failure(.binary)
                    }
                    let decoded: SessionMessage
                    switch parsed {
                    case .success(let message): decoded = message
                    case .failure(let problem):
                        seen.value.withLock { $0.problem = problem.description }
                        try? await outbound.close(FollowerSockets.closeCode(problem), reason: problem.description)
                        return
                    }
                    if hello, !seen.value.withLock({ $0.welcomed }), Self.isRelays(decoded) {
                        // Nothing of it is told: the silent connection that follows is given the same messages.
                        seen.value.withLock { $0.fromRelay = true }
                        try? await outbound.close(.normalClosure, reason: "listening without a hello")
                        return
                    }
                    switch decoded {
                    case .hello:
                        seen.value.withLock { $0.problem = "the host said hello" }
                        try? await outbound.close(.policyViolation, reason: "only followers say hello")
                        return
                    case .welcome(let welcome):
                        guard let storyURL = welcome.story.packageURL(joinedAt: url) else {
                            seen.value.withLock { $0.problem = "the story's URL \(welcome.story.url) is not a URL" }
                            return
                        }
                        seen.value.withLock { $0.welcomed = true }
                        events.yield(.welcome(welcome, storyURL: storyURL))
                        if voting == nil, welcome.votes != nil, let ballot = link.ballot {
                            let (id, texts) = ballot.attach(at: welcome.location)
                            // To a host on the socket; to a relay node (which takes nothing on it) as a POST it proxies.
                            voting = (id, Task {
                                for await text in texts {
                                    if hello {
                                        try? await outbound.write(.text(text))
                                    } else {
                                        await postVote(text, voter: ballot.voter, url: url, token: token, client: link.client)
                                    }
                                }
                            })
                        }
                    case .location(let location): events.yield(.location(location))
                    case .beat(let sync): events.yield(.beat(sync))
                    case .cue(let path, let cue): events.yield(.cue(path, cue))
                    case .participants(let names): events.yield(.followers(names.count))
                    case .followers(let count): events.yield(.followers(count))
                    case .votes(let votes): events.yield(.votes(votes))
                    case .vote:
                        seen.value.withLock { $0.problem = "the host sent a vote" }
                        try? await outbound.close(.policyViolation, reason: "only followers vote")
                        return
                    case .end(let owner):
                        seen.value.withLock { $0.ended = true }
                        events.yield(.ended(owner: owner))
                    }
                }
            }
        }
        do {
            let close: WebSocketCloseFrame?
            switch await race(attempt, url: url, seen: seen) {
            case .finished(let result): close = try result.get()
            case .speaksTLS(let suggested): return .refused(.speaksTLS(url: url.absoluteString, suggested: suggested))
            }
            let value = seen.value.withLock { $0 }
            if value.ended { return .ended }
            if let problem = value.problem { return .protocolProblem(problem) }
            if hello, value.fromRelay { return .relayWantsSilence }
            // Admitted while the host had room, refused once the socket counted (many joining at once).
            if close?.reason == "the session is full" { return .refused(.sessionFull(url: url.absoluteString, detail: "")) }
            if hello, close?.reason == relayHelloRefusal { return .relayWantsSilence }
            let said = close?.reason.map { ": \($0)" } ?? ""
            return .dropped("the host closed the connection\(said)", welcomed: value.welcomed)
        } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
            return await probe(url: socketURL, joinURL: url.absoluteString, token: token, client: link.client)
        } catch {
            let value = seen.value.withLock { $0 }
            if value.ended { return .ended }
            if let problem = value.problem { return .protocolProblem(problem) }
            if value.welcomed { return .dropped("the connection was cut (\(describe(error)))", welcomed: true) }
            return .unreachable(describe(error))
        }
    }

    /// How long an `http://` connection may go unanswered before the follower asks whether the host speaks
    /// TLS, and how long that question may take (so "try https://" comes within about 2.5 s at worst, 0.5 s
    /// on a quick host). A plain host answers its upgrade in milliseconds; one slower than this is asked
    /// too, which costs it one refused handshake and changes nothing else.
    static let plainPatience = Duration.milliseconds(500)
    static let tlsQuestion = Duration.seconds(2)

    private enum Race: Sendable {
        case finished(Result<WebSocketCloseFrame?, any Error>)
        /// The host speaks TLS: this URL with `https://`.
        case speaksTLS(String)
    }

    /// The connection's end; or, for an `http://` URL whose upgrade has not been answered after
    /// `plainPatience`, the host's speaking TLS. A TLS host closes a plain request without a word, and the
    /// WebSocket client then waits for an answer for ever (NIO's client upgrade handler does not fail on a
    /// closed channel): without this, `join http://` to a TLS host showed nothing for minutes. A cancelled
    /// follower (`q` while it waits) stops waiting at once.
    private static func race(_ attempt: Task<WebSocketCloseFrame?, any Error>, url: URL, seen: Seen) async -> Race {
        let waiting = Locked<(CheckedContinuation<Race, Never>?, watcher: Task<Void, Never>?, settled: Bool)>((nil, nil, false))
        let settle: @Sendable (Race) -> Void = { race in
            let (continuation, watcher) = waiting.withLock { state -> (CheckedContinuation<Race, Never>?, Task<Void, Never>?) in
                guard !state.settled, let continuation = state.0 else { return (nil, nil) }
                state.settled = true
                return (continuation, state.watcher)
            }
            watcher?.cancel()
            continuation?.resume(returning: race)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Race, Never>) in
                waiting.withLock { $0.0 = continuation }
                if url.scheme?.lowercased() == "http", let host = url.host {
                    let port = url.port ?? 80
                    let watcher = Task {
                        try? await Task.sleep(for: plainPatience)
                        guard !Task.isCancelled, !seen.value.withLock({ $0.upgraded }) else { return }
                        guard await FollowerTLS.speaksTLS(host: host, port: port, timeout: tlsQuestion) else { return }
                        var secure = URLComponents(url: url, resolvingAgainstBaseURL: false)
                        secure?.scheme = "https"
                        attempt.cancel()
                        settle(.speaksTLS(secure?.url?.absoluteString ?? url.absoluteString))
                    }
                    waiting.withLock { state in if state.settled { watcher.cancel() } else { state.watcher = watcher } }
                }
                Task { settle(.finished(await attempt.result)) }
                if Task.isCancelled { settle(.finished(.failure(CancellationError()))) }
            }
        } onCancel: {
            attempt.cancel()
            settle(.finished(.failure(CancellationError())))
        }
    }

    /// How a host's 503 begins (HostRequests): the session is full.
    static let sessionFull = "the session is full ("

    /// The socket was not opened: asks the same URL over plain HTTP why (401: the token; 503: the session
    /// is full, or a relay node that cannot serve it for now; 429: too
    /// many wrong tokens from here; any answer of a relay node's, marked `RelayConfiguration.relayHeader`:
    /// the node cannot serve it for now).
    private static func probe(url: String, joinURL: String, token: String, client: HTTPClient) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        do {
            let response = try await client.execute(request, timeout: .seconds(5))
            if response.status.code == 401 { return .tokenRefused }
            // A relay node that answered but would not open the socket (nchan without its Redis link answers
            // 503, and the question 503 or 403): one that may serve it again.
            if response.headers.first(name: RelayConfiguration.relayHeader) != nil {
                return .unavailable("the relay cannot serve the session for now (HTTP \(response.status.code))")
            }
            if response.status.code == 503 || response.status.code == 429 {
                let body = (try? await response.body.collect(upTo: 512)).map { String(buffer: $0) } ?? ""
                var detail = body.trimmingWhitespace
                if response.status.code == 503 {
                    // A host's "the session is full (256 following)": its count, without repeating the words.
                    // Any other 503 is a relay node that cannot serve the session for now (nchan without its
                    // Redis link), which a later try may find back.
                    guard detail.hasPrefix(Self.sessionFull) else { return .unavailable("the relay cannot serve the session for now (HTTP 503)") }
                    detail = String(detail.dropFirst(Self.sessionFull.count).dropLast())
                    return .refused(.sessionFull(url: joinURL, detail: detail))
                }
                return .refused(.slowedDown(url: joinURL, detail: String(detail.prefix(160))))
            }
            return .protocolProblem("no session at \(url) (HTTP \(response.status.code))")
        } catch {
            return .unreachable(describe(error))
        }
    }

    /// How many times a vote to a relay node is sent when it does not get through, and the pause before
    /// each retry (doubled each time).
    static let voteAttempts = 3
    static let voteRetryPause = Duration.milliseconds(250)

    /// A vote to a relay node (`POST /session/vote`, proxied to the owner's host). Sent again, at most
    /// `voteAttempts` times in all, when it did not get through: no answer, or the node's 5xx (its way to the
    /// owner's host failed) or 429 (too many at once). A refusal (4xx) is not sent again; nor is a vote
    /// once the follower has gone on (its task cancelled). The count the node carries says what was counted.
    private static func postVote(_ text: String, voter: String, url: URL, token: String, client: HTTPClient) async {
        var pause = voteRetryPause
        for attempt in 1...voteAttempts {
            var request = HTTPClientRequest(url: URL(string: "session/vote", relativeTo: url)?.absoluteURL.absoluteString ?? url.absoluteString)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "X-Pajama-Voter", value: voter)
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: text))
            let problem: String
            do {
                let response = try await client.execute(request, timeout: .seconds(5))
                let code = Int(response.status.code)
                let body = (try? await response.body.collect(upTo: 512)).map { String(buffer: $0) } ?? ""
                if code < 300 { return }
                problem = "HTTP \(code): \(body.trimmingWhitespace.prefix(160))"
                guard code >= 500 || code == 429 else {
                    PajamaLog.coreading.warning("the relay refused a vote (\(problem))")
                    return
                }
            } catch {
                problem = describe(error)
            }
            guard attempt < voteAttempts, !Task.isCancelled else {
                PajamaLog.coreading.warning("a vote did not reach the owner through the relay after \(attempt) tries (\(problem))")
                return
            }
            do { try await Task.sleep(for: pause) } catch { return }
            pause *= 2
        }
    }

    /// A connection error in a few words.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("refused") {
            return "connection refused"
        }
        return String(text.prefix(160))
    }
}
