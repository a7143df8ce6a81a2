import NIOCore
import NIOWebSocket
import PajamaModel

/// Writes one follower's outbox to its socket, on the socket's own event loop, as part of that loop's
/// one job for every follower with something to send (`LoopWrites`): an owner's turn to 2,000 followers
/// is a job per event loop, not a task per follower hopping onto its loop (issue 26, crowds: in a join
/// storm those tasks and hops were over a third of the host's work, and the turn waited behind them).
///
/// The outbox is taken only while the socket can take more: a follower that does not read keeps its
/// messages in its outbox, where a newer location replaces an older one, until its socket drains. Nothing
/// is written after the session's `end`, nor once a close frame went out.
final class FollowerChannelWriter: Sendable {
    private let handler: NIOLoopBound<FollowerWriteHandler>
    private let loop: LoopWrites
    private let outbox = Locked<FollowerOutbox?>(nil)
    private let endInput: AsyncStream<String>.Continuation
    /// The name of the owner who ended the session, once its `end` was written.
    let ended: AsyncStream<String>

    /// On the channel's event loop, while its pipeline is set up (the WebSocket encoder in it): adds the
    /// handler that writes just before the encoder (the frames are encoded already: they go on as they are,
    /// through TLS where it is on), and one after it that sees the close frames going out.
    init(channel: any Channel, loop: LoopWrites) throws {
        let handler = FollowerWriteHandler()
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(handler, position: .before(try operations.handler(type: WebSocketFrameEncoder.self)))
        try operations.addHandler(CloseFrameWatch(handler))
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        self.loop = loop
        (ended, endInput) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(1))
        handler.writable = { [weak self] in self?.write() }
    }

    /// Writes `outbox` from now on, in order, what waits in it first.
    func start(_ outbox: FollowerOutbox) {
        self.outbox.withLock { $0 = outbox }
        outbox.whenReady { [weak self] in
            guard let self else { return }
            self.loop.add(self)
        }
    }

    /// On the event loop: writes and flushes what waits, if the socket can take it.
    func write() {
        let handler = handler.value
        guard let context = handler.context, !handler.closing else { return }
        guard context.channel.isWritable else {
            handler.waitsForWritable = true
            return
        }
        guard let outbox = outbox.withLock({ $0 }) else { return }
        let messages = outbox.takeEncoded()
        guard !messages.isEmpty else { return }
        for message in messages {
            context.write(NIOAny(message.frame), promise: nil)
            if case .end(let owner) = message.message {
                endInput.yield(owner)
                endInput.finish()
                break
            }
        }
        context.flush()
    }
}

/// The socket's pipeline handler through which `FollowerChannelWriter` writes its frames, just before the
/// WebSocket encoder: it keeps its context, says when the socket can take more again, and knows whether a
/// close frame went out (`CloseFrameWatch`: nothing follows it). What the socket reads passes by.
final class FollowerWriteHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    fileprivate var context: ChannelHandlerContext?
    fileprivate var closing = false
    fileprivate var waitsForWritable = false
    fileprivate var writable: () -> Void = {}

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, waitsForWritable {
            waitsForWritable = false
            writable()
        }
        context.fireChannelWritabilityChanged()
    }
}

/// After the WebSocket encoder: notes a close frame going out (the WebSocket handler's, whoever began the
/// close), after which `FollowerWriteHandler` writes nothing more.
private final class CloseFrameWatch: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = WebSocketFrame

    private let handler: FollowerWriteHandler

    init(_ handler: FollowerWriteHandler) { self.handler = handler }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if unwrapOutboundIn(data).opcode == .connectionClose { handler.closing = true }
        context.write(data, promise: promise)
    }
}
