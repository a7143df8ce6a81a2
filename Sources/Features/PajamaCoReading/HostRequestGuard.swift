import NIOCore

/// The first handler of every connection: the request's head (request line and headers) must arrive whole
/// within `limits.headerTimeout` (slowloris: else 408), its request line within `limits.requestLineLimit`
/// bytes (else 414) and the whole head within `limits.headLimit` bytes (else 431); each refusal is answered
/// and the connection closed. Once the head is whole the guard leaves the pipeline; later requests on the
/// same connection are bounded by the idle timeout (refusals close the connection, so a stranger without
/// the token gets one head per connection).
final class HostRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Why a connection was refused before its request was read.
    enum Refusal: Sendable, Equatable {
        case headTooSlow
        case requestLineTooLong
        case headTooLarge

        var status: String {
            switch self {
            case .headTooSlow: "408 Request Timeout"
            case .requestLineTooLong: "414 URI Too Long"
            case .headTooLarge: "431 Request Header Fields Too Large"
            }
        }

        var reason: String {
            switch self {
            case .headTooSlow: "the request's head did not arrive in time"
            case .requestLineTooLong: "the request line is too long"
            case .headTooLarge: "the request's head is too large"
            }
        }
    }

    private enum State {
        case reading(seen: Int, lineEnded: Bool, tail: UInt32)
        case passed
        case refused
    }

    private let limits: HostLimits
    private let roster: ConnectionRoster
    private let refused: @Sendable (Refusal, SocketAddress?) -> Void
    private var state = State.reading(seen: 0, lineEnded: false, tail: 0)
    private var deadline: Scheduled<Void>?
    private var id: Int?

    init(limits: HostLimits, roster: ConnectionRoster, refused: @escaping @Sendable (Refusal, SocketAddress?) -> Void) {
        self.limits = limits
        self.roster = roster
        self.refused = refused
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let id = roster.opened(context.channel)
        self.id = id
        let roster = roster
        context.channel.closeFuture.whenComplete { _ in roster.closed(id) }
        let timeout = TimeAmount.nanoseconds(Int64(limits.headerTimeout.components.seconds) * 1_000_000_000
            + Int64(limits.headerTimeout.components.attoseconds / 1_000_000_000))
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = bound.value
            if case .reading = handler.state { handler.refuse(.headTooSlow, context: context) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .reading(var seen, var lineEnded, var tail) = state else {
            if case .passed = state { context.fireChannelRead(data) }
            return
        }
        // The bytes are looked at first and passed on to the HTTP decoder only if they keep to the limits
        // (passed as they came: no copy).
        var passed = false
        for byte in unwrapInboundIn(data).readableBytesView {
            seen += 1
            tail = (tail << 8) | UInt32(byte)
            if !lineEnded {
                if tail & 0xFFFF == 0x0D0A { lineEnded = true } else if seen > limits.requestLineLimit {
                    return refuse(.requestLineTooLong, context: context)
                }
            }
            if tail == 0x0D0A_0D0A {
                passed = true
                break
            }
            if seen > limits.headLimit { return refuse(.headTooLarge, context: context) }
        }
        guard passed else {
            state = .reading(seen: seen, lineEnded: lineEnded, tail: tail)
            context.fireChannelRead(data)
            return
        }
        state = .passed
        deadline?.cancel()
        if let id { roster.arrived(id) }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ refusal: Refusal, context: ChannelHandlerContext) {
        state = .refused
        deadline?.cancel()
        refused(refusal, context.channel.remoteAddress)
        let answer = "HTTP/1.1 \(refusal.status)\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: \(refusal.reason.utf8.count + 1)\r\n\r\n\(refusal.reason)\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer)), promise: nil)
        context.close(promise: nil)
    }
}
