import NIOCore
import WSCore

/// One message being put together from its frames, with the size limit checked as each frame arrives
/// (a fragmented message over the limit is refused at the frame that passes it, never buffered whole).
struct MessageAssembly {
    /// What a frame did.
    enum Step: Equatable {
        /// The message goes on in the next frame.
        case more
        /// A whole text message.
        case text(String)
        case refused(SessionCodec.Problem)
    }

    let limit: Int
    private var bytes: ByteBuffer?
    private var isBinary = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a frame (text, binary or continuation; control frames never come here).
    mutating func add(opcode: WebSocketDataFrame.Opcode, fin: Bool, data: ByteBuffer) -> Step {
        switch opcode {
        case .text, .binary:
            guard bytes == nil else { return .refused(.malformed("a new message began before the last one ended")) }
            isBinary = opcode == .binary
            bytes = ByteBuffer()
        case .continuation:
            guard bytes != nil else { return .refused(.malformed("a continuation frame with no message")) }
        }
        let size = (bytes?.readableBytes ?? 0) + data.readableBytes
        guard size <= limit else {
            bytes = nil
            return .refused(.tooLarge(size: size))
        }
        var data = data
        bytes?.writeBuffer(&data)
        guard fin else { return .more }
        defer { bytes = nil }
        if isBinary { return .refused(.binary) }
        guard let whole = bytes, let text = String(validating: whole.readableBytesView, as: UTF8.self) else {
            return .refused(.malformed("not UTF-8"))
        }
        return .text(text)
    }
}

/// A follower's messages, read frame by frame through `MessageAssembly`.
struct FollowerMessages {
    private var frames: WebSocketInboundStream.AsyncIterator
    private var assembly: MessageAssembly

    init(_ inbound: WebSocketInboundStream, limit: Int) {
        frames = inbound.makeAsyncIterator()
        assembly = MessageAssembly(limit: limit)
    }

    /// The next message, decoded, or why it was refused; nil once the socket closed.
    mutating func next() async -> Result<SessionMessage, SessionCodec.Problem>? {
        while true {
            let frame: WebSocketDataFrame?
            do {
                frame = try await frames.next()
            } catch {
                return nil
            }
            guard let frame else { return nil }
            switch assembly.add(opcode: frame.opcode, fin: frame.fin, data: frame.data) {
            case .more: continue
            case .text(let text): return SessionCodec.parse(text)
            case .refused(let problem): return .failure(problem)
            }
        }
    }
}
