import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import PajamaCore
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
    /// otherwise).
    public static func connect(to url: URL, token: String, name: String, backoff: ReconnectBackoff = ReconnectBackoff(),
                               tls: TLSConfiguration? = nil, client: HTTPClient? = nil) -> AsyncStream<FollowerEvent> {
        let (events, input) = AsyncStream<FollowerEvent>.makeStream(bufferingPolicy: .unbounded)
        let link = Link(tls: tls, client: client ?? HTTPStorySource.defaultClient)
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
        case protocolProblem(String)
        /// Closed or cut after it was open; `welcomed` if a welcome arrived on it.
        case dropped(String, welcomed: Bool)
    }

    /// How a connection reaches the host: its TLS (nil for plain HTTP) and the HTTP client of its probe.
    struct Link: Sendable {
        let tls: TLSConfiguration?
        let client: HTTPClient
    }

    private static func run(url: URL, token: String, name: String, backoff: ReconnectBackoff, link: Link,
                            events: AsyncStream<FollowerEvent>.Continuation) async {
        let joinURL = url.absoluteString
        var welcomedOnce = false
        var attempt = 0
        while !Task.isCancelled {
            let outcome = await once(url: url, token: token, name: name, link: link, events: events)
            let reason: String
            switch outcome {
            case .ended: return
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
            var welcomed = false
            var ended = false
            var problem: String?
        }
        let value = Locked(Value())
    }

    /// One connection, until it closes.
    private static func once(url: URL, token: String, name: String, link: Link,
                             events: AsyncStream<FollowerEvent>.Continuation) async -> Outcome {
        let socketURL = URL(string: "session", relativeTo: url)?.absoluteURL.absoluteString ?? url.absoluteString
        var headers = WebSocketClientConfiguration().additionalHeaders
        headers[.authorization] = "Bearer \(token)"
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20, additionalHeaders: headers, closeTimeout: .seconds(1))
        // TLS refuses an IP address as the server's name (SNI); a host joined by address is named otherwise
        // (a pinned certificate is checked by its fingerprint, not its names).
        if link.tls != nil, let host = url.host, host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) {
            configuration.sniHostname = "pajama-session"
        }
        let seen = Seen()
        do {
            let close = try await WebSocketClient.connect(
                url: socketURL, configuration: configuration, tlsConfiguration: link.tls,
                logger: Logger(label: "pajama-follower", factory: { _ in SwiftLogNoOpLogHandler() })
            ) { inbound, outbound, _ in
                try await outbound.write(.text(SessionCodec.encode(.hello(name: name, countOnly: true))))
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
                    case .location(let location): events.yield(.location(location))
                    case .beat(let sync): events.yield(.beat(sync))
                    case .cue(let path, let cue): events.yield(.cue(path, cue))
                    case .participants(let names): events.yield(.followers(names.count))
                    case .followers(let count): events.yield(.followers(count))
                    case .end(let owner):
                        seen.value.withLock { $0.ended = true }
                        events.yield(.ended(owner: owner))
                    }
                }
            }
            let value = seen.value.withLock { $0 }
            if value.ended { return .ended }
            if let problem = value.problem { return .protocolProblem(problem) }
            // Admitted while the host had room, refused once the socket counted (many joining at once).
            if close?.reason == "the session is full" { return .refused(.sessionFull(url: url.absoluteString, detail: "")) }
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

    /// The socket was not opened: asks the same URL over plain HTTP why (401: the token; 503: the session
    /// is full; 429: too many wrong tokens from here).
    private static func probe(url: String, joinURL: String, token: String, client: HTTPClient) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        do {
            let response = try await client.execute(request, timeout: .seconds(5))
            if response.status.code == 401 { return .tokenRefused }
            if response.status.code == 503 || response.status.code == 429 {
                let body = (try? await response.body.collect(upTo: 512)).map { String(buffer: $0) } ?? ""
                var detail = body.trimmingCharacters(in: .whitespacesAndNewlines)
                if response.status.code == 503 {
                    // "the session is full (256 following)": the host's count, without repeating the words.
                    detail = detail.hasPrefix("the session is full (") ? String(detail.dropFirst("the session is full (".count).dropLast()) : ""
                    return .refused(.sessionFull(url: joinURL, detail: detail))
                }
                return .refused(.slowedDown(url: joinURL, detail: String(detail.prefix(160))))
            }
            return .protocolProblem("no session at \(url) (HTTP \(response.status.code))")
        } catch {
            return .unreachable(describe(error))
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
