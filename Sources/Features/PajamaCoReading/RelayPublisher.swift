import AsyncHTTPClient
import FoundationEssentials
import Glibc
import NIOCore
import PajamaBasics
import PajamaHTTP
import PajamaJSON
import PajamaModel
import PajamaReading

/// The owner's side of a relay node (`pajama host STORY --relay URL`, docs/coreading.md, "Relays"): each
/// change of the session is POSTed once to the node's publisher (`RelayConfiguration.publishPath`, with the
/// owner's secret), over the process's one HTTP client; the node carries it to every follower.
///
/// What it sends keeps nchan's newest message the whole state, so a follower joining late (nchan gives it the
/// newest message first) lands on the current page: every change of the owner's place is a whole `welcome`;
/// a sound cue goes out followed by the welcome again; `end` is the last. Welcomes not yet sent are replaced by
/// a newer one (the newest wins: a node that is slow or down is never sent a backlog of pages); a failed send
/// is tried again with a backoff until it goes or a newer welcome replaces it.
///
/// A watcher asks the node every `checkEvery` how many follow (`following`) and whether it still has the
/// channel: a node restarted without Redis has none, and is sent the current welcome again.
public final class RelayPublisher: Sendable {
    /// Where the owner publishes: the node's URL (the followers' join URL) and the owner's secret.
    public struct Target: Sendable, Equatable {
        public var url: URL
        public var secret: String

        public init(url: URL, secret: String) {
            self.url = url
            self.secret = secret
        }

        /// The node's publisher endpoint.
        public var publishURL: String {
            var base = url.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return base + RelayConfiguration.publishPath
        }
    }

    /// A message waiting to be sent, encoded.
    private struct Item: Sendable, Equatable {
        var text: String
        /// A whole-state message: a newer one replaces it while it waits.
        var isWelcome: Bool
    }

    /// What waits to be sent, and what the node last said.
    private struct Outbox {
        var items: [Item] = []
        /// The newest welcome put (sent or waiting): sent again to a node that lost the channel.
        var welcome: String?
        /// `end` was put: nothing more is.
        var closed = false
        /// The node's count of followers, as last asked (nil before it answered).
        var following: Int?
        /// Why the last publish failed (nil: it went).
        var problem: String?
    }

    private enum State: Sendable {
        case idle
        case running(sender: Task<Void, Never>, watcher: Task<Void, Never>)
        case ended
    }

    public let target: Target
    /// How often the node is asked for its count of followers and whether it has the channel.
    public let checkEvery: Duration
    private let client: HTTPClient
    private let log: @Sendable (String) -> Void
    private let outbox = Locked(Outbox())
    private let state = Locked(State.idle)
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let followingInput: AsyncStream<Int>.Continuation
    /// The node's count of followers each time it changes (the owner's "hosting · N following").
    public let followingChanges: AsyncStream<Int>

    /// At most this many messages wait while the node is unreachable (the oldest go first: cues; a welcome
    /// after them has the state).
    static let waitingLimit = 64

    public init(target: Target, checkEvery: Duration = .seconds(2), client: HTTPClient = HTTPStorySource.defaultClient,
                log: @escaping @Sendable (String) -> Void) {
        self.target = target
        self.checkEvery = checkEvery
        self.client = client
        self.log = log
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        (followingChanges, followingInput) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The node's count of followers, as last asked.
    public var following: Int? { outbox.withLock { $0.following } }

    /// Starts sending (what was put before is sent first) and watching the node.
    public func start() {
        state.withLock { state in
            guard case .idle = state else { return }
            let sender = Task { [self] in await send() }
            let watcher = Task { [self] in await watch() }
            state = .running(sender: sender, watcher: watcher)
        }
    }

    /// The whole state (a welcome with the count only): replaces a welcome still waiting; not put again if
    /// it is the newest put.
    public func publish(welcome: SessionWelcome) {
        let text = SessionCodec.encode(.welcome(welcome.countOnly.throughRelay))
        put { outbox in
            guard outbox.welcome != text else { return false }
            outbox.welcome = text
            if let last = outbox.items.last, last.isWelcome { outbox.items.removeLast() }
            outbox.items.append(Item(text: text, isWelcome: true))
            return true
        }
    }

    /// A cue: sent, then the newest welcome again (so the node's newest message is the whole state).
    public func publish(cue path: AssetPath, _ cue: SoundCue) {
        let text = SessionCodec.encode(.cue(path, cue))
        put { outbox in
            outbox.items.append(Item(text: text, isWelcome: false))
            if let welcome = outbox.welcome { outbox.items.append(Item(text: welcome, isWelcome: true)) }
            return true
        }
    }

    /// The owner ended the session: `end(owner)` is the last message; waits at most `patience` for what
    /// waits to be sent, then stops.
    public func end(owner: String, patience: Duration = .seconds(2)) async {
        let text = SessionCodec.encode(.end(name: owner))
        put { outbox in
            outbox.items.append(Item(text: text, isWelcome: false))
            outbox.closed = true
            return true
        }
        wake.finish()
        let tasks: (Task<Void, Never>, Task<Void, Never>)? = state.withLock { state in
            defer { state = .ended }
            if case .running(let sender, let watcher) = state { return (sender, watcher) }
            return nil
        }
        followingInput.finish()
        guard let (sender, watcher) = tasks else { return }
        watcher.cancel()
        await CoReadingHost.first(within: patience) { await sender.value }
        sender.cancel()
    }

    /// Changes the outbox (unless closed); wakes the sender if `change` says so.
    private func put(_ change: (inout Outbox) -> Bool) {
        let changed = outbox.withLock { outbox -> Bool in
            guard !outbox.closed else { return false }
            let changed = change(&outbox)
            if outbox.items.count > Self.waitingLimit { outbox.items.removeFirst(outbox.items.count - Self.waitingLimit) }
            return changed
        }
        if changed { wake.yield() }
    }

    /// Sends what waits, in order, each once it went (a failure is tried again after a pause, unless a newer
    /// welcome replaced it meanwhile). Ends after `end`, or when cancelled.
    private func send() async {
        var pause = Duration.milliseconds(50)
        for await _ in wakes {
            while !Task.isCancelled {
                guard let item = outbox.withLock({ $0.items.first }) else { break }
                let problem = await post(item.text)
                if Task.isCancelled { return }
                noted(problem)
                let sent = problem == nil
                let done = outbox.withLock { outbox -> Bool in
                    // A welcome that failed is dropped once a newer one waits behind it.
                    let superseded = !sent && item.isWelcome && outbox.items.dropFirst().contains(where: \.isWelcome)
                    guard sent || superseded else { return false }
                    if outbox.items.first == item { outbox.items.removeFirst() }
                    return true
                }
                if done {
                    pause = .milliseconds(50)
                } else {
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(2))
                }
            }
            if Task.isCancelled { return }
        }
    }

    /// POSTs one message to the node: nil if it took it, else why not.
    private func post(_ text: String) async -> String? {
        var request = HTTPClientRequest(url: target.publishURL)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(target.secret)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: text))
        do {
            let response = try await client.execute(request, timeout: .seconds(5))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            switch response.status.code {
            case 200..<300: return nil
            case 403: return "it refused the owner's secret (\(RelayConfiguration.secretVariable) is not the relay's)"
            default: return "it answered HTTP \(response.status.code)"
            }
        } catch {
            return FollowerConnection.describe(error)
        }
    }

    /// Says in the log when publishing starts failing (once per reason) and when it works again.
    private func noted(_ problem: String?) {
        let said: String? = outbox.withLock { outbox in
            defer { outbox.problem = problem }
            if let problem, problem != outbox.problem {
                return "cannot publish to the relay at \(target.url.absoluteString): \(problem); trying again"
            }
            if problem == nil, outbox.problem != nil { return "publishing to the relay at \(target.url.absoluteString) again" }
            return nil
        }
        if let said { log(said) }
    }

    /// Every `checkEvery`: the node's count of followers, and whether it has a message of the session (a node
    /// restarted without Redis has none: the newest welcome goes again).
    private func watch() async {
        while !Task.isCancelled {
            if let info = await channelInfo() {
                let changed = outbox.withLock { outbox -> Bool in
                    defer { outbox.following = info.subscribers }
                    return outbox.following != info.subscribers
                }
                if changed { followingInput.yield(info.subscribers) }
                if info.messages == 0 {
                    put { outbox in
                        guard let welcome = outbox.welcome, !outbox.items.contains(where: \.isWelcome) else { return false }
                        outbox.items.append(Item(text: welcome, isWelcome: true))
                        return true
                    }
                }
            }
            try? await Task.sleep(for: checkEvery)
        }
    }

    /// nchan's word on the session's channel (no channel: no message, no follower); nil if the node did not
    /// answer.
    private func channelInfo() async -> ChannelInfo? {
        var request = HTTPClientRequest(url: target.publishURL)
        request.headers.add(name: "Authorization", value: "Bearer \(target.secret)")
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await client.execute(request, timeout: .seconds(5))
            let body = try await response.body.collect(upTo: 64 * 1024)
            if response.status.code == 404 { return ChannelInfo(messages: 0, subscribers: 0) }
            guard response.status.code == 200 else { return nil }
            return try JSONValueDecoder().decode(ChannelInfo.self, from: Array(buffer: body))
        } catch {
            return nil
        }
    }

    /// What nchan says of a channel (`Accept: application/json`).
    private struct ChannelInfo: Decodable {
        var messages: Int
        var subscribers: Int
    }
}
