import DequeModule
import NIOCore
import PajamaModel

/// What the host still has to send one follower: bounded whatever the follower's speed.
///
/// Messages leave in the order they were put in, except that a new location replaces a location not yet
/// sent (the latest wins: a follower behind skips the pages in between), likewise participants (or their count) and
/// the votes; at most `cueLimit` cues wait (the oldest is dropped); a welcome replaces everything before it; nothing is
/// accepted after `end`. So the outbox never holds more than `cueLimit` + 5 messages, and filling it
/// never waits: a slow follower never slows the owner or the others.
///
/// Whoever writes it says `whenReady` what to call when messages wait: called once, then not again until
/// the next `take` (a broadcast's put to each of 2,000 outboxes costs a lock each, and at most one call).
public final class FollowerOutbox: Sendable {
    public static let cueLimit = 8

    /// A message with its WebSocket text frame: a broadcast is encoded once for every follower it goes to
    /// (the frame's bytes are shared by every socket, never copied, and go to the socket as they are); a
    /// message for one follower is encoded when written.
    public struct Outgoing: Sendable, Equatable {
        public let message: SessionMessage
        private let encoded: ByteBuffer?

        /// `encodeNow`: encode here (a broadcast), else when written.
        public init(_ message: SessionMessage, encodeNow: Bool) {
            self.message = message
            encoded = encodeNow ? Self.textFrame(SessionCodec.encode(message)) : nil
        }

        /// The whole frame as it goes to the socket: its header, then the JSON text.
        public var frame: ByteBuffer { encoded ?? Self.textFrame(SessionCodec.encode(message)) }

        /// The JSON text's UTF-8 bytes (the frame's payload).
        public var bytes: ByteBuffer {
            var frame = frame
            frame.moveReaderIndex(forwardBy: Self.headerLength(frame.getInteger(at: frame.readerIndex + 1, as: UInt8.self)!))
            return frame
        }

        public static func == (a: Outgoing, b: Outgoing) -> Bool { a.message == b.message }

        /// A final, unmasked text frame (RFC 6455 5.2, as a server sends): 0x81, then the length in 7 bits,
        /// or 126 and 16 bits, or 127 and 64 bits, then the text.
        static func textFrame(_ text: String) -> ByteBuffer {
            let length = text.utf8.count
            var frame = ByteBuffer()
            frame.reserveCapacity(length + 10)
            frame.writeInteger(UInt8(0x81))
            switch length {
            case ..<126:
                frame.writeInteger(UInt8(length))
            case ...0xFFFF:
                frame.writeInteger(UInt8(126))
                frame.writeInteger(UInt16(length))
            default:
                frame.writeInteger(UInt8(127))
                frame.writeInteger(UInt64(length))
            }
            frame.writeString(text)
            return frame
        }

        /// The header's length from its second byte.
        static func headerLength(_ second: UInt8) -> Int {
            switch second & 0x7F {
            case 126: 4
            case 127: 10
            default: 2
            }
        }
    }

    private struct Pending {
        var messages: Deque<Outgoing> = []
        var closed = false
        /// Told when messages wait (`whenReady`).
        var ready: (@Sendable () -> Void)?
        /// `ready` was called and nothing was taken since.
        var told = false

        /// Whether `ready` is to be called now (and it is then marked told).
        mutating func tell() -> (@Sendable () -> Void)? {
            guard let ready, !told, !messages.isEmpty else { return nil }
            told = true
            return ready
        }
    }

    private let pending = Locked(Pending())

    public init() {}

    /// From now on `ready` is called when messages wait (at once if some do), once until the next take.
    public func whenReady(_ ready: @escaping @Sendable () -> Void) {
        let call = pending.withLock { state in
            state.ready = ready
            return state.tell()
        }
        call?()
    }

    /// Adds a message, coalescing as described above.
    public func put(_ message: SessionMessage) {
        put(Outgoing(message, encodeNow: false))
    }

    /// Adds a message already encoded (the session encodes a message once for all its followers).
    public func put(_ outgoing: Outgoing) {
        let message = outgoing.message
        let call = pending.withLock { state -> (@Sendable () -> Void)? in
            guard !state.closed else { return nil }
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
            case .votes:
                state.messages.removeAll { if case .votes = $0.message { true } else { false } }
            case .cue:
                let cues = state.messages.filter { if case .cue = $0.message { true } else { false } }.count
                if cues >= Self.cueLimit, let oldest = state.messages.firstIndex(where: { if case .cue = $0.message { true } else { false } }) {
                    state.messages.remove(at: oldest)
                }
            case .end:
                state.closed = true
            case .hello, .vote:
                return nil
            }
            state.messages.append(outgoing)
            return state.tell()
        }
        call?()
    }

    /// Everything waiting, oldest first; the outbox is then empty.
    public func take() -> [SessionMessage] {
        takeEncoded().map(\.message)
    }

    /// Everything waiting with its text, oldest first; the outbox is then empty.
    public func takeEncoded() -> [Outgoing] {
        pending.withLock { state in
            defer {
                state.messages.removeAll()
                state.told = false
            }
            return Array(state.messages)
        }
    }

    /// How many messages wait (tests).
    public var count: Int { pending.withLock { $0.messages.count } }

    /// No more messages (what waits may still be taken).
    public func close() {
        pending.withLock { $0.closed = true }
    }
}
