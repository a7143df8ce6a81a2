import DequeModule
import PajamaCore

/// What the host still has to send one follower: bounded whatever the follower's speed.
///
/// Messages leave in the order they were put in, except that a new location replaces a location not yet
/// sent (the latest wins: a follower behind skips the pages in between), likewise participants (or their count); at most
/// `cueLimit` cues wait (the oldest is dropped); a welcome replaces everything before it; nothing is
/// accepted after `end`. So the outbox never holds more than `cueLimit` + 4 messages, and filling it
/// never waits: a slow follower never slows the owner or the others.
public final class FollowerOutbox: Sendable {
    public static let cueLimit = 8

    /// A message with its JSON text: a broadcast is encoded once for every follower it goes to; a
    /// message for one follower (its welcome) is encoded by that follower's writer, off the session.
    public struct Outgoing: Sendable, Equatable {
        public let message: SessionMessage
        private let encoded: String?

        /// `encodeNow`: encode here (a broadcast), else when written.
        public init(_ message: SessionMessage, encodeNow: Bool) {
            self.message = message
            encoded = encodeNow ? SessionCodec.encode(message) : nil
        }

        /// The JSON text.
        public var text: String { encoded ?? SessionCodec.encode(message) }
    }

    private struct Pending {
        var messages: Deque<Outgoing> = []
        var closed = false
    }

    private let pending = Locked(Pending())
    private let wake: AsyncStream<Void>.Continuation
    /// Ticks when there is something to take (several puts may make one tick).
    public let wakes: AsyncStream<Void>

    public init() {
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds a message, coalescing as described above.
    public func put(_ message: SessionMessage) {
        put(Outgoing(message, encodeNow: false))
    }

    /// Adds a message already encoded (the session encodes a message once for all its followers).
    public func put(_ outgoing: Outgoing) {
        let message = outgoing.message
        let accepted = pending.withLock { state -> Bool in
            guard !state.closed else { return false }
            switch message {
            case .welcome:
                state.messages.removeAll()
            case .location:
                state.messages.removeAll { if case .location = $0.message { true } else { false } }
            case .beat:
                state.messages.removeAll { if case .beat = $0.message { true } else { false } }
            case .participants:
                state.messages.removeAll { if case .participants = $0.message { true } else { false } }
            case .followers:
                state.messages.removeAll { if case .followers = $0.message { true } else { false } }
            case .cue:
                let cues = state.messages.filter { if case .cue = $0.message { true } else { false } }.count
                if cues >= Self.cueLimit, let oldest = state.messages.firstIndex(where: { if case .cue = $0.message { true } else { false } }) {
                    state.messages.remove(at: oldest)
                }
            case .end:
                state.closed = true
            case .hello:
                return false
            }
            state.messages.append(outgoing)
            return true
        }
        if accepted { wake.yield() }
        if case .end = message { wake.finish() }
    }

    /// Everything waiting, oldest first; the outbox is then empty.
    public func take() -> [SessionMessage] {
        takeEncoded().map(\.message)
    }

    /// Everything waiting with its text, oldest first; the outbox is then empty.
    public func takeEncoded() -> [Outgoing] {
        pending.withLock { state in
            defer { state.messages.removeAll() }
            return Array(state.messages)
        }
    }

    /// How many messages wait (tests).
    public var count: Int { pending.withLock { $0.messages.count } }

    /// No more messages: the writer's `wakes` loop ends after taking what is left.
    public func close() {
        pending.withLock { $0.closed = true }
        wake.finish()
    }
}
