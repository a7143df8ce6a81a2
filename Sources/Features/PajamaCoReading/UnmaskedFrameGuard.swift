import NIOCore
import NIOWebSocket

/// The first handler of a follower's socket once upgraded: a frame from the client that is not masked is
/// refused with close code 1002 (protocol error) and the connection closed, as RFC 6455 (section 5.1) asks
/// of a server. Neither NIO's frame decoder nor the WebSocket layer above it checks the mask; without this,
/// unmasked frames were read as any other (issue 42, item 6).
final class UnmaskedFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The close frame's reason.
    static let reason = "frames from a client must be masked"

    private enum State {
        case reading
        /// A frame came unmasked: what follows is dropped until the connection is closed.
        case refused
    }

    private var state = State.reading
    private let refused: @Sendable (SocketAddress?) -> Void

    /// `refused` is told the peer's address when a frame is refused (a log line).
    init(refused: @escaping @Sendable (SocketAddress?) -> Void) {
        self.refused = refused
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .reading = state else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else { return context.fireChannelRead(data) }
        state = .refused
        refused(context.channel.remoteAddress)
        var payload = context.channel.allocator.buffer(capacity: 2 + Self.reason.utf8.count)
        payload.write(webSocketErrorCode: .protocolError)
        payload.writeString(Self.reason)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
