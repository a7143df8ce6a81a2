import FoundationEssentials
import Glibc
import PajamaBasics
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import PajamaModel
import PajamaReading
import PajamaStoryFormat

/// The owner's side of co-reading: one server on one port that serves the story package's declared files
/// read-only over HTTP (so followers read it through their normal HTTP source and disk cache) and the
/// session's WebSocket at `/session`. Every request and the socket need the token (`Authorization: Bearer
/// T` or `?token=T`); anything else gets HTTP 401 and a log line.
///
/// Its parts: `HostChannel` (each connection's pipeline: head guard, timeouts, limits, upgrade),
/// `HostRequests` (authentication and the file server), `FollowerSockets` (the socket pump) and this type
/// (lifecycle: start, publish, end). Limits and timeouts: `HostLimits`.
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
        /// How long `end()` waits for followers' sockets to close, and then for the server to stop.
        public var endTimeout: Duration
        /// Caps, timeouts and sizes (docs/coreading.md, "Limits").
        public var limits: HostLimits
        /// How long participant changes gather before the owner's status line shows them.
        public var participantsDelay: Duration
        /// How long they gather before every follower is told the count (no follower shows it; each telling
        /// is a message to every follower).
        public var followersDelay: Duration
        /// TLS (HTTPS and WSS on the same port), or nil for plain HTTP.
        public var tls: HostTLS?
        /// A relay node the session is published to (`pajama host --relay URL`): followers join there, and
        /// the node fetches the story's files from this host (its token is the relay's).
        public var relay: RelayPublisher.Target?
        /// The followers vote on the owner's choices (`pajama host --votes`): on their sockets, or through the
        /// relay node (which proxies their votes to this host).
        public var votes: Bool

        public init(bind: String = "127.0.0.1", port: Int = 7777, ownerName: String, endTimeout: Duration = .milliseconds(300),
                    limits: HostLimits = HostLimits(), participantsDelay: Duration = .milliseconds(100), followersDelay: Duration = .seconds(1),
                    tls: HostTLS? = nil, relay: RelayPublisher.Target? = nil, votes: Bool = false) {
            self.bind = bind
            self.port = port
            self.ownerName = ownerName
            self.endTimeout = endTimeout
            self.limits = limits
            self.participantsDelay = participantsDelay
            self.followersDelay = followersDelay
            self.tls = tls
            self.relay = relay
            self.votes = votes
        }
    }

    /// Why the host could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the reader is told when the server cannot listen: the usual causes in words, with the option
    /// that changes them; anything else as the system said it.
    static func listenProblem(_ error: any Error, bind: String, port: Int) -> String {
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: return "port \(port) is in use; choose another with --port"
        case EACCES: return "port \(port) needs privileges (ports below 1024); choose another with --port"
        case EADDRNOTAVAIL: return "\(bind) is not an address of this machine; choose another with --bind"
        default: return "cannot listen on \(bind):\(port): \(error)"
        }
    }

    private enum State {
        case idle
        /// `presented`: the TLS certificate presented, when TLS is on.
        case running(Task<Void, any Error>, port: Int, presented: HostTLS.Presented?)
        /// The owner quit; the story's files are still served to the followers still connected, until
        /// `serving` (the last one leaving, or `HostLimits.servingAfterEnd`) stops the server.
        case servingAfterEnd(Task<Void, any Error>, port: Int, presented: HostTLS.Presented?, serving: Task<Void, Never>)
        case ended
    }

    public let session: CoReadingSession
    public let access: HostAccess
    public let configuration: Configuration
    private let story: SessionStory
    private let requests: HostRequests
    private let sockets: FollowerSockets
    /// The connections open (at most `HostLimits.budget`), strangers shed first near it.
    private let roster: ConnectionRoster
    private let log: HostLog
    private let state = Locked(State.idle)
    /// Publishes each change once to the relay node, when there is one.
    public let relay: RelayPublisher?

    /// `storyId`/`storyVersion` come from story.json; `token` nil makes a random one; `log` gets one line per
    /// refused request (at most 50 in 10 s).
    /// `format` and `files` name a story made from files of its own (an ink or Twine story: in the folder or
    /// at the URL); `packageFiles` is what a folder's story declares (`StoryFormat.packageFiles`): only those
    /// files are served.
    public init(content: Content, storyId: String, storyVersion: String?, format: String? = nil, files: [String] = [],
                packageFiles: PackageFileSet? = nil, configuration: Configuration, token: String? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        access = HostAccess(token: token ?? HostAccess.randomToken())
        self.log = HostLog(write: log)
        relay = configuration.relay.map { [log = self.log] in RelayPublisher(target: $0, log: { log($0) }) }
        var votesTold: (@Sendable (SessionWelcome) -> Void)?
        if let relay { votesTold = { welcome in relay.publish(welcome: welcome) } }
        session = CoReadingSession(owner: configuration.ownerName, participantsDelay: configuration.participantsDelay,
                                   followersDelay: configuration.followersDelay, votes: configuration.votes, votesTold: votesTold)
        sockets = FollowerSockets(session: session, limits: configuration.limits, log: self.log)
        let budget = configuration.limits.budget
        roster = ConnectionRoster(budget: budget) { [log = self.log] address, open in
            log("closed a connection from \(HostChannel.describe(address)): no request yet, and \(open) of the host's \(budget) connections "
                + "are open (strangers go first, to keep room for followers)")
        }
        let served: PackageFiles?
        switch content {
        case .folder(let folder):
            // Without a format's word, the folder is a package of Pajama's own format.
            let declared = packageFiles ?? PajamaPackageFormat().packageFiles(of: FoundStory(format: PajamaPackageFormat(), folder: folder.path, files: []))
            served = PackageFiles(folder: folder, declaring: declared)
            story = SessionStory(id: storyId, version: storyVersion, url: "/", format: format, files: files)
        case .url(let url):
            served = nil
            story = SessionStory(id: storyId, version: storyVersion, url: url.absoluteString, format: format, files: files)
        }
        var requests = HostRequests(access: access, throttle: WrongTokenThrottle(limits: configuration.limits), files: served, storyURL: story.url,
                                    sockets: sockets, log: self.log, stallTimeout: configuration.limits.downloadStallTimeout)
        // Followers at a relay node vote through it (the node proxies their votes here), as many as follow there.
        if configuration.votes, let relay {
            let session = session, cap = configuration.limits.followerCap
            requests.relayVotes = { voter, location, choice in
                await session.relayVote(voter, at: location, choice: choice, cap: relay.following ?? cap)
            }
        }
        self.requests = requests
    }

    /// The port listened on (after `start()`).
    public var port: Int {
        switch state.withLock({ $0 }) {
        case .running(_, let port, _), .servingAfterEnd(_, let port, _, _): return port
        default: return 0
        }
    }

    /// The SHA-256 fingerprint of the host's TLS certificate (64 hex digits), when TLS is on.
    public var fingerprint: String? { presented?.fingerprint }

    /// What is wrong with the host's certificate, served anyway (`--allow-expired`): a sentence for the owner.
    public var certificateWarning: String? { presented?.warning }

    private var presented: HostTLS.Presented? {
        switch state.withLock({ $0 }) {
        case .running(_, _, let presented), .servingAfterEnd(_, _, let presented, _): return presented
        default: return nil
        }
    }

    /// `http://HOST:PORT/` (`https` with TLS); listening on every address (`0.0.0.0`, `::`), HOST is this
    /// machine's name.
    public var joinURL: String {
        "\(configuration.tls == nil ? "http" : "https")://\(Self.urlHost(configuration.bind)):\(port)/"
    }

    private static func urlHost(_ bind: String) -> String {
        var host = bind
        if host == "0.0.0.0" || host == "::" { host = ProcessInfo.processInfo.hostName }
        if host.contains(":") { host = "[\(host)]" }
        return host
    }

    /// Whether the host listens only on this machine (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool {
        let bind = configuration.bind
        return bind.hasPrefix("127.") || bind == "::1" || bind == "localhost"
    }

    /// What a follower types: the token in the environment (`PAJAMA_TOKEN`), where no process list shows
    /// it (`--token T` would).
    /// With a self-signed certificate, the fingerprint the follower checks it by. With a relay, its URL.
    public var joinCommand: String {
        if let relay = configuration.relay { return "PAJAMA_TOKEN=\(access.token) pajama join \(relay.url.absoluteString)" }
        let pin = configuration.tls == .selfSigned ? fingerprint.map { " --fingerprint \($0)" } ?? "" : ""
        return "PAJAMA_TOKEN=\(access.token) pajama join \(joinURL)\(pin)"
    }

    /// Listens; returns the join URL once the port is open. Refuses a token shorter than
    /// `HostAccess.minimumTokenLength`, saying why.
    public func start() async throws -> String {
        if let problem = HostAccess.problem(with: access.token) { throw StartError(description: "the token is refused: \(problem)") }
        await session.selectStory(story)
        let limits = configuration.limits
        let requests = requests, sockets = sockets, log = log
        let roster = roster, budget = roster.budget
        let channel = HostChannel(
            secure: configuration.tls != nil,
            responder: { request, writer, channel in try await requests.respond(request, writer, channel) },
            limits: limits, roster: roster,
            admit: { target, authorization, peer in requests.admitsSocket(target: target, authorization: authorization, peer: peer) },
            socket: { inbound, outbound, writer, peer, hangUp in await sockets.serve(inbound, outbound, writer, peer: peer, hangUp: hangUp) },
            loopWrites: LoopWrites.PerLoop(),
            refused: { refusal, address in
                log("closed a connection from \(HostChannel.describe(address)): \(refusal.reason) (HTTP \(refusal.status.prefix(3)))")
            },
            unmasked: { address in
                log("closed a socket from \(HostChannel.describe(address)): \(UnmaskedFrameGuard.reason) (1002)")
            })
        var identity: HostTLS.Identity?
        if let tls = configuration.tls {
            do {
                identity = try tls.identity(names: [configuration.bind, Self.urlHost(configuration.bind), ProcessInfo.processInfo.hostName])
            } catch let problem as HostTLS.Problem {
                throw StartError(description: problem.description)
            } catch {
                throw StartError(description: "cannot set up TLS: \(error)")
            }
            if let warning = identity?.presented.warning { log(warning) }
        }
        let child: any ServerChildChannel = try identity.map { try TLSChannel(channel, tlsConfiguration: $0.configuration) } ?? channel
        let (ready, readyInput) = AsyncStream<Int>.makeStream()
        let server = child.server(
            configuration: ServerConfiguration(
                address: .hostname(configuration.bind, port: configuration.port), serverName: nil,
                // A backlog for many followers joining at once (a class starting together), not the default 256.
                backlog: 1024,
                availableConnectionsDelegate: MaximumAvailableConnections(budget)),
            onServerRunning: { channel in
                readyInput.yield(channel.localAddress?.port ?? 0)
                readyInput.finish()
            },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: Logger(label: "pajama-host", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            defer { readyInput.finish() }
            try await server.run()
        }
        var bound: Int?
        for await value in ready { bound = value }
        guard let bound, bound > 0 else {
            task.cancel()
            switch await task.result {
            case .failure(let error): throw StartError(description: Self.listenProblem(error, bind: configuration.bind, port: configuration.port))
            case .success: throw StartError(description: "cannot listen on \(configuration.bind):\(configuration.port): the server stopped")
            }
        }
        state.withLock { $0 = .running(task, port: bound, presented: identity?.presented) }
        if let relay {
            relay.start()
            await publishToRelay()
        }
        return joinURL
    }

    /// The owner entered a beat of an ink story (publish it before the location in it).
    public func publish(beat sync: BeatSync) async {
        await session.updateBeat(sync)
        await publishToRelay()
    }

    /// The owner is at `location` (fully resolved), a page of `choices` choices (what followers may vote on).
    public func publish(_ location: StoryLocation, choices: Int = 0) async {
        await session.updateLocation(location, choices: choices)
        await publishToRelay()
    }

    /// The owner triggered a sound.
    public func cue(_ path: AssetPath, _ cue: SoundCue) async {
        await session.cue(path, cue)
        relay?.publish(cue: path, cue)
    }

    /// The whole state to the relay (its newest message is what a follower joining there gets first).
    private func publishToRelay() async {
        guard let relay, let welcome = await session.current.welcome else { return }
        relay.publish(welcome: welcome)
    }

    /// The followers' names each time they change.
    public var participantChanges: AsyncStream<[String]> { session.participantChanges }

    /// The followers' votes on the owner's page each time they change (`Configuration.votes`).
    public var voteChanges: AsyncStream<SessionVotes> { session.voteChanges }

    /// Ends the session: every follower gets `end(NAME)` and its socket closes (1001, "NAME ended the
    /// session"); the server stops. Waits at most about twice `endTimeout`. After `endServingOn()`, stops
    /// serving at once.
    public func end() async {
        let (task, serving): (Task<Void, any Error>?, Task<Void, Never>?) = state.withLock { state in
            defer { state = .ended }
            switch state {
            case .running(let task, _, _): return (task, nil)
            case .servingAfterEnd(let task, _, _, let serving): return (task, serving)
            default: return (nil, nil)
            }
        }
        serving?.cancel()
        await session.end()
        await relay?.end(owner: configuration.ownerName)
        guard let task else { return }
        // Sockets kept open after the end (serving on) are closed here; the others close after their `end`.
        await stop(task, closing: serving == nil ? nil : "\(configuration.ownerName)'s host stopped serving the story")
    }

    /// The owner quit, and followers may read on alone: every follower gets `end(NAME)` at once, but the
    /// story's files are still served to those still connected (their sockets stay open) until the last one
    /// leaves or `HostLimits.servingAfterEnd` passes; then their sockets close (1001) and the server stops.
    /// A host with no files (the story on a web server) or no follower stops at once, as `end()`.
    /// Returns at once: the stream says how many followers are still connected, at each change, and
    /// finishes once the server stopped. `end()` stops it sooner.
    public func endServingOn() async -> AsyncStream<Int> {
        let (counts, input) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
        let sockets = sockets
        guard requests.files != nil, sockets.count > 0 else {
            await end()
            input.finish()
            return counts
        }
        sockets.keepOpenAfterEnd()
        let limit = configuration.limits.servingAfterEnd
        let owner = configuration.ownerName
        // Claimed before the session ends, so a concurrent `end()` finds the serving task to cancel.
        let claimed: Bool = state.withLock { state in
            guard case .running(let task, let port, let presented) = state else { return false }
            let serving = Task { [weak self] in
                let left = await Self.watch(sockets, within: limit) { input.yield($0) }
                guard let self else { return input.finish() }
                let server: Task<Void, any Error>? = self.state.withLock { state in
                    guard case .servingAfterEnd(let task, _, _, _) = state else { return nil }
                    state = .ended
                    return task
                }
                if let server { await self.stop(server, closing: left == 0 ? nil : "\(owner)'s host stopped serving the story") }
                input.finish()
            }
            state = .servingAfterEnd(task, port: port, presented: presented, serving: serving)
            return true
        }
        await session.end()
        await relay?.end(owner: configuration.ownerName)
        if !claimed { input.finish() }
        return counts
    }

    /// Tells `changed` the number of sockets open at each change until none is open or `limit` passes;
    /// returns the number still open then (0 when the last left; ends at once when cancelled).
    private static func watch(_ sockets: FollowerSockets, within limit: Duration, changed: @escaping @Sendable (Int) -> Void) async -> Int {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await count in sockets.counts() {
                    changed(count)
                    if count == 0 { return }
                }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        return sockets.count
    }

    /// Closes the followers' sockets still open after the end (1001 with `closing`), waits for all to close
    /// within `endTimeout`, stops the server within `endTimeout`.
    private func stop(_ task: Task<Void, any Error>, closing: String?) async {
        let sockets = sockets
        if let closing { await sockets.dropAll(reason: closing) }
        await Self.first(within: configuration.endTimeout) { await sockets.drained() }
        task.cancel()
        // The server stops shortly; never wait for it longer than the bound (the process may be quitting).
        await Self.first(within: configuration.endTimeout) { _ = await task.result }
    }

    /// The host's connections open now, and those of them whose request's head has not arrived (tests).
    var connectionCounts: (open: Int, waiting: Int) { roster.counts }

    /// The follower sockets open now, joined or about to (tests).
    var openSockets: Int { sockets.count }

    /// The files' bodies being sent now (tests).
    var openDownloads: Int { requests.downloads.current }

    /// Closes every follower's socket ("going away") without ending the session: followers reconnect and
    /// catch up from the welcome (a host whose network hiccuped; the reconnect tests).
    func dropConnections() async {
        await sockets.dropAll()
    }

    /// Awaits `work` for at most `limit`: whichever ends first resumes the caller. The one left over ends
    /// by itself (work that is bounded, or the sleep).
    static func first(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async {
        let once = ResumeOnce()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            once.set(continuation)
            Task {
                await work()
                once.resume()
            }
            Task {
                try? await Task.sleep(for: limit)
                once.resume()
            }
        }
    }
}

/// A continuation resumed by whichever of two tasks comes first.
private final class ResumeOnce: Sendable {
    private let continuation = Locked<CheckedContinuation<Void, Never>?>(nil)

    func set(_ value: CheckedContinuation<Void, Never>) { continuation.withLock { $0 = value } }

    func resume() {
        continuation.withLock { value in
            value?.resume()
            value = nil
        }
    }
}
