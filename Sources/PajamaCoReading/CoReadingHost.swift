import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOWebSocket
import PajamaCore
import Synchronization

/// The owner's side of co-reading: one Hummingbird server on one port that serves the story package
/// folder read-only over plain HTTP (so followers read it through their normal HTTP source and disk
/// cache) and the session's WebSocket at `/session`. Every request and the socket need the token
/// (`Authorization: Bearer T` or `?token=T`); anything else gets HTTP 401 and a log line.
///
/// The reader uses `start()` (the join URL), `publish(_:)`, `cue(_:_:)`, `participantChanges` and `end()`.
public final class CoReadingHost: Sendable {
    /// Where followers get the story from.
    public enum Content: Sendable {
        /// A package folder: this host serves it.
        case folder(URL)
        /// A package on a web server or CDN: followers read it there; this host serves only the session.
        case url(URL)
    }

    public struct Configuration: Sendable {
        /// The address to listen on; loopback unless the owner says otherwise.
        public var bind: String
        /// The port; 0 takes any free port (tests).
        public var port: Int
        /// The owner's name, shown to followers.
        public var ownerName: String
        /// How long `end()` waits for followers' sockets to close.
        public var endTimeout: Duration

        public init(bind: String = "127.0.0.1", port: Int = 7777, ownerName: String, endTimeout: Duration = .milliseconds(300)) {
            self.bind = bind
            self.port = port
            self.ownerName = ownerName
            self.endTimeout = endTimeout
        }
    }

    /// Why the host could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    private enum State {
        case idle
        case running(Task<Void, any Error>, port: Int)
        case ended
    }

    public let session: CoReadingSession
    public let access: HostAccess
    public let configuration: Configuration
    private let content: Content
    private let story: SessionStory
    private let files: PackageFiles?
    private let log: @Sendable (String) -> Void
    private let state = Locked(State.idle)
    /// Sockets being served (`end()` waits for them).
    private let connections = Atomic<Int>(0)
    /// The open sockets of joined followers, by follower id (`dropConnections`).
    private let sockets = Locked<[Int: WebSocketOutboundWriter]>([:])

    /// `storyId`/`storyVersion` come from story.json; `token` nil makes a random one; `log` gets one line per
    /// refused request.
    /// `ink` names the ink file of an ink story (in the folder or at the URL).
    public init(content: Content, storyId: String, storyVersion: String?, ink: String? = nil, configuration: Configuration, token: String? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.content = content
        self.configuration = configuration
        self.access = HostAccess(token: token ?? HostAccess.randomToken())
        self.log = log
        session = CoReadingSession(owner: configuration.ownerName)
        switch content {
        case .folder(let folder):
            files = PackageFiles(folder: folder)
            story = SessionStory(id: storyId, version: storyVersion, url: "/", ink: ink)
        case .url(let url):
            files = nil
            story = SessionStory(id: storyId, version: storyVersion, url: url.absoluteString, ink: ink)
        }
    }

    /// The port listened on (after `start()`).
    public var port: Int {
        if case .running(_, let port) = state.withLock({ $0 }) { return port }
        return 0
    }

    /// `http://HOST:PORT/`; listening on every address (`0.0.0.0`, `::`), HOST is this machine's name.
    public var joinURL: String {
        var host = configuration.bind
        if host == "0.0.0.0" || host == "::" { host = ProcessInfo.processInfo.hostName }
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(port)/"
    }

    /// Whether the host listens only on this machine (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool {
        let bind = configuration.bind
        return bind.hasPrefix("127.") || bind == "::1" || bind == "localhost"
    }

    /// What a follower types.
    public var joinCommand: String { "pajama join \(joinURL) --token \(access.token)" }

    /// Listens; returns the join URL once the port is open.
    public func start() async throws -> String {
        await session.selectStory(story)
        let router = Router()
        router.get("**") { request, _ in self.answer(request) }
        router.head("**") { request, _ in self.answer(request) }
        let upgrade = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: WebSocketServerConfiguration(maxFrameSize: 1 << 20, closeTimeout: .seconds(1)))
        let (ready, readyInput) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: upgrade) { request, _, _ in
                guard Self.path(of: request.path ?? "") == "/session",
                      self.access.admits(authorization: request.headerFields[.authorization], target: request.path ?? "")
                else { return .dontUpgrade }  // the router answers: 401 (and a log line), or 404
                return .upgrade([:]) { inbound, outbound, _ in await self.serve(inbound, outbound) }
            },
            // A backlog for many followers joining at once (a class starting together), not the default 256.
            configuration: .init(address: .hostname(configuration.bind, port: configuration.port), serverName: nil, backlog: 1024),
            onServerRunning: { channel in
                readyInput.yield(channel.localAddress?.port ?? 0)
                readyInput.finish()
            },
            logger: Logger(label: "pajama-host", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            defer { readyInput.finish() }
            try await app.run()
        }
        var bound: Int?
        for await value in ready { bound = value }
        guard let bound, bound > 0 else {
            task.cancel()
            let reason: String
            switch await task.result {
            case .failure(let error): reason = "\(error)"
            case .success: reason = "the server stopped"
            }
            throw StartError(description: "cannot listen on \(configuration.bind):\(configuration.port): \(reason)")
        }
        state.withLock { $0 = .running(task, port: bound) }
        return joinURL
    }

    /// The owner entered a beat of an ink story (publish it before the location in it).
    public func publish(beat sync: BeatSync) async {
        await session.updateBeat(sync)
    }

    /// The owner is at `location` (fully resolved).
    public func publish(_ location: StoryLocation) async {
        await session.updateLocation(location)
    }

    /// The owner triggered a sound.
    public func cue(_ path: AssetPath, _ cue: SoundCue) async {
        await session.cue(path, cue)
    }

    /// The followers' names each time they change.
    public var participantChanges: AsyncStream<[String]> { session.participantChanges }

    /// Ends the session: every follower gets `end(NAME)` and its socket closes with "NAME ended the
    /// session"; the server stops. Waits at most about twice `endTimeout`.
    public func end() async {
        let task: Task<Void, any Error>? = state.withLock { state in
            defer { state = .ended }
            if case .running(let task, _) = state { return task }
            return nil
        }
        await session.end()
        guard let task else { return }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.endTimeout)
        while connections.load(ordering: .acquiring) > 0, clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(5))
        }
        task.cancel()
        // The server stops shortly; never wait for it longer than the bound (the process may be quitting).
        let stopped = StopFlag()
        let waiter = Task {
            _ = await task.result
            stopped.done.store(true, ordering: .releasing)
        }
        let stopDeadline = clock.now.advanced(by: configuration.endTimeout)
        while !stopped.done.load(ordering: .acquiring), clock.now < stopDeadline {
            try? await clock.sleep(for: .milliseconds(5))
        }
        waiter.cancel()
    }

    /// Closes every follower's socket ("going away") without ending the session: followers reconnect and
    /// catch up from the welcome (a host whose network hiccuped; the reconnect tests).
    func dropConnections() async {
        let open = sockets.withLock { Array($0.values) }
        for outbound in open { try? await outbound.close(.goingAway, reason: "the host dropped the connection") }
    }

    // MARK: HTTP

    private func answer(_ request: Request) -> Response {
        let target = request.uri.description
        guard access.admits(authorization: request.headers[.authorization], target: target) else {
            let given = request.headers[.authorization] != nil || HostAccess.queryValue("token", in: target) != nil
            let reason = given ? "wrong token" : "no token"
            log("refused \(request.method) \(request.uri.path) from \(request.head.authority ?? "?"): \(reason) (HTTP 401)")
            return Response(status: .unauthorized, headers: [.contentType: "text/plain", .wwwAuthenticate: "Bearer"],
                            body: .init(byteBuffer: ByteBuffer(string: "the host refused the token\n")))
        }
        guard let files else {
            return Response(status: .notFound, headers: [.contentType: "text/plain"],
                            body: .init(byteBuffer: ByteBuffer(string: "this host serves only the session; the story is at \(story.url)\n")))
        }
        switch files.read(requestPath: request.uri.path) {
        case .file(let bytes):
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .notFound:
            return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        case .refused(let reason):
            log("refused \(request.uri.path): \(reason) (HTTP 403)")
            return Response(status: .forbidden, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: reason + "\n")))
        }
    }

    /// The path of a request target, without its query.
    static func path(of target: String) -> String {
        String(target.prefix { $0 != "?" })
    }

    // MARK: The socket

    /// One follower's connection: its `hello`, then its outbox written to the socket until the session ends
    /// or the follower leaves. Anything else a follower sends is refused with a close reason.
    private func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async {
        connections.add(1, ordering: .releasing)
        defer { connections.subtract(1, ordering: .releasing) }
        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        let name: String
        switch await Self.next(&messages) {
        case nil: return
        case .failure(let problem)?:
            log("refused a follower's message: \(problem)")
            try? await outbound.close(Self.closeCode(problem), reason: problem.description)
            return
        case .success(.hello(let given))?:
            name = Self.displayName(given)
        case .success(let other)?:
            try? await outbound.close(.policyViolation, reason: "a follower says hello first, not \(other.type)")
            return
        }
        guard let follower = await session.join(name: name) else {
            let ended = await session.current.endedBy
            try? await outbound.close(.goingAway, reason: ended.map { "\($0) ended the session" } ?? "the session is not open")
            return
        }
        sockets.withLock { $0[follower.id] = outbound }
        defer { _ = sockets.withLock { $0.removeValue(forKey: follower.id) } }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in follower.outbox.wakes {
                    for message in follower.outbox.take() {
                        do {
                            try await outbound.write(.text(SessionCodec.encode(message)))
                        } catch {
                            return
                        }
                        if case .end(let owner) = message {
                            try? await outbound.close(.normalClosure, reason: "\(owner) ended the session")
                            return
                        }
                    }
                }
            }
            // After hello a follower has nothing to say: any message is refused; the loop ends when it leaves.
            while let next = await Self.next(&messages) {
                let problem: String
                switch next {
                case .failure(let refused): problem = refused.description
                case .success(let message): problem = "a follower has nothing to say after hello (got \(message.type))"
                }
                log("refused a message from \(name): \(problem)")
                try? await outbound.close(.policyViolation, reason: problem)
                break
            }
            group.cancelAll()
        }
        await session.leave(follower.id)
    }

    /// The next message, decoded; nil when the connection closed.
    private static func next(_ messages: inout WebSocketInboundMessageStream.AsyncIterator) async -> Result<SessionMessage, SessionCodec.Problem>? {
        let message: WebSocketMessage?
        do {
            message = try await messages.next()
        } catch {
            return nil
        }
        switch message {
        case nil: return nil
        case .binary?: return .failure(.binary)
        case .text(let text)?: return SessionCodec.parse(text)
        }
    }

    static func closeCode(_ problem: SessionCodec.Problem) -> WebSocketErrorCode {
        switch problem {
        case .tooLarge: .messageTooLarge
        case .binary: .unacceptableData
        default: .policyViolation
        }
    }

    /// A follower's name as shown: printable, at most 32 characters, "reader" when empty.
    static func displayName(_ given: String) -> String {
        let kept = String(given.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init)).prefix(32)
        let trimmed = kept.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "reader" : trimmed
    }
}

/// Set when the server's task has ended.
private final class StopFlag: Sendable {
    let done = Atomic<Bool>(false)
}
