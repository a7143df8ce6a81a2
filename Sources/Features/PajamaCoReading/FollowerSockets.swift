import FoundationEssentials
import Glibc
import PajamaBasics
import NIOWebSocket
import PajamaModel
import WSCore

/// The host's follower sockets: each one's hello (within `limits.helloTimeout`), then its outbox written to
/// it (on its event loop, `FollowerChannelWriter`) until the session ends or the follower leaves; anything
/// else a follower sends closes it with a code saying what happened (1008 policy, 1009 too big, 1001 the
/// host going away). It counts the sockets against the follower cap and lets `end()` await the last one
/// closing.
final class FollowerSockets: Sendable {
    private struct Open {
        /// Sockets open, whether or not they said hello.
        var count = 0
        /// Of those, the ones that said hello and were let in: what the follower cap counts.
        var joined = 0
        var writers: [Int: WebSocketOutboundWriter] = [:]
        var drained: [CheckedContinuation<Void, Never>] = []
        /// Those told the count at each change (`counts()`).
        var watchers: [Int: AsyncStream<Int>.Continuation] = [:]
        var nextWatcher = 0
        /// Whether a socket stays open after the session's `end` (the host goes on serving the story's
        /// files to the followers still connected); else it is closed with 1001 at once.
        var openAfterEnd = false
    }

    private let session: CoReadingSession
    private let limits: HostLimits
    private let log: HostLog
    private let open = Locked(Open())
    /// Gives a crowd's memory back once it has left.
    private let memory: CrowdMemory

    init(session: CoReadingSession, limits: HostLimits, log: HostLog, memory: CrowdMemory = CrowdMemory()) {
        self.session = session
        self.limits = limits
        self.log = log
        self.memory = memory
    }

    /// Sockets open now (joined or not yet).
    var count: Int { open.withLock { $0.count } }

    /// Sockets that said hello and count against the follower cap.
    var joined: Int { open.withLock { $0.joined } }

    /// The number of sockets open now, then at each change (until the stream is dropped).
    func counts() -> AsyncStream<Int> {
        let (stream, input) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = open.withLock { open -> Int in
            defer { open.nextWatcher += 1 }
            open.watchers[open.nextWatcher] = input
            input.yield(open.count)
            return open.nextWatcher
        }
        input.onTermination = { [weak self] _ in _ = self?.open.withLock { $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    /// From now on a follower's socket stays open after the session's `end`, until the follower closes it
    /// or `dropAll` closes it (reading on alone while the host serves the story's files).
    func keepOpenAfterEnd() { open.withLock { $0.openAfterEnd = true } }

    /// Whether one more follower fits under the cap. Only sockets that said hello count: one that has not is
    /// bounded by the connection budget and closed at the hello timeout, so silent sockets with the token
    /// cannot keep the session full (issue 42).
    var hasRoom: Bool { joined < limits.followerCap }

    /// Returns once no socket is open (at once if none is).
    func drained() async {
        await withCheckedContinuation { continuation in
            let now = open.withLock { open -> Bool in
                guard open.count > 0 else { return true }
                open.drained.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Closes every joined follower's socket (1001 going away) without ending the session: followers
    /// reconnect and catch up from the welcome.
    func dropAll(reason: String = "the host dropped the connection") async {
        let writers = open.withLock { Array($0.writers.values) }
        for outbound in writers { try? await outbound.close(.goingAway, reason: reason) }
    }

    /// One socket, from its first frame to its close. `hangUp` closes the connection outright (a peer that
    /// does not answer a close).
    func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ writer: FollowerChannelWriter,
               peer: String, hangUp: @escaping @Sendable () -> Void) async {
        let opened = open.withLock { open -> Int in
            open.count += 1
            for watcher in open.watchers.values { watcher.yield(open.count) }
            return open.count
        }
        memory.changed(open: opened)
        defer {
            let (left, waiting) = open.withLock { open -> (Int, [CheckedContinuation<Void, Never>]) in
                open.count -= 1
                for watcher in open.watchers.values { watcher.yield(open.count) }
                guard open.count == 0 else { return (open.count, []) }
                defer { open.drained = [] }
                return (0, open.drained)
            }
            for continuation in waiting { continuation.resume() }
            memory.changed(open: left)
        }
        let hello = HelloDeadline()
        let limit = limits.helloTimeout
        let timer = Task {
            try await Task.sleep(for: limit)
            guard hello.expire() else { return }
            try? await outbound.close(.policyViolation, reason: "no hello within \(WrongTokenThrottle.seconds(limit))")
            // A peer that does not answer the close is cut off.
            try await Task.sleep(for: .seconds(1))
            hangUp()
        }
        defer { timer.cancel() }
        var messages = FollowerMessages(inbound, limit: limits.messageLimit)
        let first = await messages.next()
        guard hello.said() else {
            log("closed a socket from \(peer): no hello within \(WrongTokenThrottle.seconds(limit)) (1008)")
            return
        }
        let name: String
        let countOnly: Bool
        switch first {
        case nil: return
        case .failure(let problem)?:
            log("refused a message from \(peer): \(problem) (\(Self.closeNumber(problem)))")
            try? await outbound.close(Self.closeCode(problem), reason: problem.description)
            return
        case .success(.hello(let given, let count))?:
            name = Self.displayName(given)
            countOnly = count
            let admitted = open.withLock { open -> Bool in
                guard open.joined < limits.followerCap else { return false }
                open.joined += 1
                return true
            }
            guard admitted else {
                log("refused a follower from \(peer): the session is full (\(limits.followerCap) following) (1008)")
                try? await outbound.close(.policyViolation, reason: "the session is full")
                return
            }
        case .success(let other)?:
            try? await outbound.close(.policyViolation, reason: "a follower says hello first, not \(other.type)")
            return
        }
        // Only a socket let in under the cap gets here.
        defer { open.withLock { $0.joined -= 1 } }
        guard let follower = await session.join(name: name, countOnly: countOnly) else {
            let ended = await session.current.endedBy
            try? await outbound.close(.goingAway, reason: ended.map { "\($0) ended the session" } ?? "the session is not open")
            return
        }
        open.withLock { $0.writers[follower.id] = outbound }
        defer { _ = open.withLock { $0.writers.removeValue(forKey: follower.id) } }
        writer.start(follower.outbox)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.closeAfterEnd(writer.ended, outbound) }
            // After hello a follower says nothing but its votes, in a session that takes them, at most
            // `limits.votesPerSecond`: anything else is refused; the loop ends when it leaves.
            var pace = VotePace(limit: limits.votesPerSecond)
            while let next = await messages.next() {
                let problem: SessionCodec.Problem
                switch next {
                case .success(.vote(let location, let choice)) where session.takesVotes:
                    if pace.allows(at: .now) {
                        await session.vote(follower.id, at: location, choice: choice)
                        continue
                    }
                    problem = .malformed("more than \(limits.votesPerSecond) votes in a second")
                case .failure(let refused): problem = refused
                case .success(let message): problem = .malformed("a follower has nothing to say after hello (got \(message.type))")
                }
                log("refused a message from \(HostLog.shown(name, limit: 32)) at \(peer): \(problem) (\(Self.closeNumber(problem)))")
                try? await outbound.close(Self.closeCode(problem), reason: problem.description)
                break
            }
            group.cancelAll()
        }
        await session.leave(follower.id)
    }

    /// Once the session's `end` was written, closes the socket (1001: the host goes away), unless the host
    /// goes on serving the story (`keepOpenAfterEnd`): the follower then closes it when it quits, or the
    /// host when it stops.
    private func closeAfterEnd(_ ended: AsyncStream<String>, _ outbound: WebSocketOutboundWriter) async {
        for await owner in ended {
            if !open.withLock({ $0.openAfterEnd }) { try? await outbound.close(.goingAway, reason: "\(owner) ended the session") }
            return
        }
    }

    static func closeNumber(_ problem: SessionCodec.Problem) -> Int {
        switch problem {
        case .tooLarge: 1009
        case .binary: 1003
        default: 1008
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
        let trimmed = kept.trimmingSpaces
        return trimmed.isEmpty ? "reader" : trimmed
    }
}

/// How many votes a follower sent in the last second: at most `limit`.
struct VotePace: Sendable {
    let limit: Int
    private var window: ContinuousClock.Instant?
    private var count = 0

    init(limit: Int) { self.limit = limit }

    /// One more vote at `now`: false if it is one too many for its second.
    mutating func allows(at now: ContinuousClock.Instant) -> Bool {
        if let window, now - window < .seconds(1) {
            count += 1
        } else {
            window = now
            count = 1
        }
        return count <= limit
    }
}

/// Whether a socket said hello before its deadline: whichever of the two comes first wins.
private final class HelloDeadline: Sendable {
    private enum State { case waiting, said, expired }
    private let state = Locked(State.waiting)

    /// The hello came; false if the deadline had passed.
    func said() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return state == .said }
            state = .said
            return true
        }
    }

    /// The deadline passed; false if the hello had come.
    func expire() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .expired
            return true
        }
    }
}
