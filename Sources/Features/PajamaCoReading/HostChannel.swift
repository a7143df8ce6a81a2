import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// One connection to the host, set up as nginx would: the request's head is guarded first
/// (`HostRequestGuard`: header timeout, request line and head limits), a malformed request is answered 400
/// and closed (NIO's error handler), an idle HTTP connection is closed, and `/session` is upgraded to a
/// WebSocket only when `admit` says so. A refused upgrade goes to the same HTTP responder as any request,
/// which says why (401, 429, 503), instead of an empty 400 (Hummingbird's `HTTP1WebSocketUpgradeChannel`
/// answers every refused upgrade that way).
struct HostChannel: ServerChildChannel, HTTPChannelHandler {
    enum Negotiated: Sendable {
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade refused: NIO's upgrade handler keeps the request's head, so it is answered from the
        /// head `admit` saw.
        case refusedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, HTTPRequestHead)
        /// A follower's socket, and what writes its outbox on its event loop.
        case socket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, FollowerChannelWriter)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    /// What the socket's handler sees of its context.
    struct SocketContext: WebSocketContext {
        let logger: Logger
    }

    /// A follower's socket, from its first frame to its close; what writes its outbox; the peer's address;
    /// hanging up outright.
    typealias SocketHandler = @Sendable (WebSocketInboundStream, WebSocketOutboundWriter, FollowerChannelWriter, String,
                                         @escaping @Sendable () -> Void) async -> Void

    /// Whether TLS is beneath (the requests' scheme).
    let secure: Bool
    let responder: HTTPChannelHandler.Responder
    let limits: HostLimits
    /// The connections open, and which have not sent their head yet (shed first near the budget).
    let roster: ConnectionRoster
    /// Whether an upgrade request (path and query, the Authorization header, the peer's address) becomes a socket.
    let admit: @Sendable (_ target: String, _ authorization: String?, _ peer: String) -> Bool
    let socket: SocketHandler
    /// The host's followers with something to send, per event loop.
    let loopWrites: LoopWrites.PerLoop
    let refused: @Sendable (HostRequestGuard.Refusal, SocketAddress?) -> Void
    /// A socket's client sent a frame without a mask (closed 1002: `UnmaskedFrameGuard`).
    let unmasked: @Sendable (SocketAddress?) -> Void

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(HostRequestGuard(limits: limits, roster: roster, refused: refused))
            let refusedHead = NIOLoopBoundBox<HTTPRequestHead?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: limits.messageLimit,
                shouldUpgrade: { channel, head in
                    let peer = Self.describe(channel.remoteAddress)
                    let admitted = Self.path(of: head.uri) == "/session" && admit(head.uri, head.headers.first(name: "authorization"), peer)
                    if !admitted { refusedHead.value = head }
                    return channel.eventLoop.makeSucceededFuture(admitted ? HTTPHeaders() : nil)
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(UnmaskedFrameGuard(refused: unmasked))
                        let writer = try FollowerChannelWriter(channel: channel, loop: loopWrites.writes(for: channel.eventLoop))
                        return .socket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)), writer)
                    }
                })
            let idle = limits.idleTimeout
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(
                upgradeConfiguration: NIOTypedHTTPServerUpgradeConfiguration(
                    upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: secure))
                            try channel.pipeline.syncOperations.addHandler(
                                HTTPConnectionStateHandler(idleTimeout: idle, logger: logger))
                            let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                            return refusedHead.value.map { .refusedUpgrade(http, $0) } ?? .http(http)
                        }
                    }))
            configuration.enablePipelining = false
            // A request NIO cannot parse (a lower-case method, a control character in a header) is answered
            // 400 and the connection closed, before any of the host's code sees it.
            configuration.enableErrorHandling = true
            // The guard answers a head over `headLimit` (431) before the decoder would (400).
            configuration.decoderConfiguration.maxHeaderFieldSize = limits.headLimit * 2
            configuration.decoderConfiguration.maxHeaderListSize = limits.headLimit * 2
            configuration.decoderConfiguration.maxHeaderFieldCount = 100
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            try channel.pipeline.syncOperations.addHandler(CloseOnParserError())
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        let negotiated: Negotiated
        do {
            negotiated = try await value.negotiated.get()
        } catch {
            // The head never came whole (refused by the guard, a parse error, the peer gone): already closed or closing.
            logger.trace("negotiation failed: \(error)")
            try? await value.channel.close()
            return
        }
        switch negotiated {
        case .http(let http):
            await handleHTTP(asyncChannel: http, logger: logger)
        case .refusedUpgrade(let http, let head):
            let responder = responder
            let secure = secure
            try? await http.executeThenClose { _, outbound in
                let request = Request(head: try HTTPRequest(head, secure: secure, splitCookie: false), body: RequestBody(buffer: ByteBuffer()))
                try await responder(request, ResponseWriter(outbound: outbound), http.channel)
            }
        case .socket(let socket, let writer):
            let peer = Self.describe(value.channel.remoteAddress)
            let handler = self.socket
            let channel = value.channel
            let hangUp: @Sendable () -> Void = { channel.close(promise: nil) }
            _ = try? await WebSocketHandler.handle(
                type: .server,
                configuration: .init(extensions: [], autoPing: .enabled(timePeriod: limits.idleTimeout / 2), closeTimeout: .seconds(1),
                                     validateUTF8: true, maxFrameSize: limits.messageLimit),
                asyncChannel: socket, context: SocketContext(logger: logger),
                handler: { inbound, outbound, _ in await handler(inbound, outbound, writer, peer, hangUp) })
        }
    }

    /// The peer's address as the log shows it (never the Host header, which the peer writes).
    static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "?" }
        return address.ipAddress ?? "\(address)"
    }

    /// The path of a request target, without its query.
    static func path(of target: String) -> String {
        String(target.prefix { $0 != "?" })
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + Int64(duration.components.attoseconds / 1_000_000_000))
    }
}

/// Closes the connection once NIO's error handler has answered a request it could not parse (400): the
/// upgradable pipeline leaves that to the application, and an unparsed request is held otherwise.
private final class CloseOnParserError: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError { context.close(promise: nil) }
        context.fireErrorCaught(error)
    }
}
