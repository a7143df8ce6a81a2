import NIOCore
import NIOEmbedded
import NIOWebSocket
import PajamaModel
import Testing
@testable import PajamaCoReading

/// The followers' sockets of one event loop are written by one job on that loop (`LoopWrites`), through
/// `FollowerChannelWriter`: in order, only while a socket can take more, never after a close frame.
/// Embedded channels on one embedded loop stand in for the sockets (synchronous tests: one thread).
@Suite struct LoopWritesTests {
    static func at(_ page: Int) -> StoryLocation { StoryLocation(beatId: "b", pageId: "p\(page)") }

    /// A follower's socket: the channel, its outbox and its writer.
    struct Socket {
        let channel: EmbeddedChannel
        let outbox = FollowerOutbox()
        let writer: FollowerChannelWriter

        init(loop: EmbeddedEventLoop, writes: LoopWrites, order: Locked<[Int]>? = nil, number: Int = 0) throws {
            // As after the upgrade: the WebSocket encoder, then the writer's handlers.
            channel = EmbeddedChannel(handler: WebSocketFrameEncoder(), loop: loop)
            writer = try FollowerChannelWriter(channel: channel, loop: writes)
            // Between the writer (first in the pipeline) and the socket.
            if let order { try channel.pipeline.syncOperations.addHandler(WriteOrder(number: number, order: order), position: .first) }
            writer.start(outbox)
        }

        /// The text frames written so far, decoded.
        func written() throws -> [SessionMessage] {
            try texts().map { try SessionCodec.decode($0) }
        }

        /// The text frames written so far (each write is one whole frame, header and text).
        func texts() throws -> [String] {
            var texts: [String] = []
            while var frame = try channel.readOutbound(as: ByteBuffer.self) {
                let header = frame.readBytes(length: 2) ?? [0, 0]
                #expect(header[0] == 0x81, "a final text frame, unmasked")
                let length = switch header[1] {
                case 126: frame.readInteger(as: UInt16.self).map(Int.init)
                case 127: frame.readInteger(as: UInt64.self).map(Int.init)
                default: Int(header[1])
                }
                #expect(frame.readableBytes == length)
                texts.append(String(buffer: frame))
            }
            return texts
        }
    }

    /// Notes the socket's number in a shared list when a frame goes out through it.
    final class WriteOrder: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        let number: Int
        let order: Locked<[Int]>

        init(number: Int, order: Locked<[Int]>) {
            self.number = number
            self.order = order
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            order.withLock { $0.append(number) }
            context.write(data, promise: promise)
        }
    }

    @Test func aBroadcastToTheFollowersOfALoopIsOneJobThatWritesThemInOrder() throws {
        let loop = EmbeddedEventLoop()
        let writes = LoopWrites(eventLoop: loop)
        let order = Locked<[Int]>([])
        let sockets = try (0..<50).map { try Socket(loop: loop, writes: writes, order: order, number: $0) }
        let welcome = SessionWelcome(story: SessionStory(id: "tale", version: "1", url: "/"), owner: "bob", location: Self.at(1), participants: ["ann"])
        for socket in sockets { socket.outbox.put(.welcome(welcome)) }
        let turn = FollowerOutbox.Outgoing(.location(Self.at(2)), encodeNow: true)
        for socket in sockets { socket.outbox.put(turn) }
        // Nothing is written until the loop's job runs, and the 100 puts scheduled one job.
        #expect(order.withLock { $0 }.isEmpty)
        #expect(writes.jobs == 0)
        loop.run()
        #expect(writes.jobs == 1)
        for socket in sockets { #expect(try socket.written() == [.welcome(welcome), .location(Self.at(2))]) }
        #expect(order.withLock { $0 } == (0..<50).flatMap { [$0, $0] })
        // The next broadcast is the next job.
        for socket in sockets.reversed() { socket.outbox.put(.location(Self.at(3))) }
        loop.run()
        #expect(writes.jobs == 2)
        #expect(order.withLock { $0 }.suffix(50) == Array((0..<50).reversed()))
        for socket in sockets { #expect(try socket.written() == [.location(Self.at(3))]) }
    }

    @Test func aSocketThatCannotTakeMoreGetsOnlyTheLatestLocationWhenItCan() throws {
        let loop = EmbeddedEventLoop()
        let writes = LoopWrites(eventLoop: loop)
        let socket = try Socket(loop: loop, writes: writes)
        socket.channel.isWritable = false
        for page in 1...100 { socket.outbox.put(.location(Self.at(page))) }
        loop.run()
        #expect(try socket.written().isEmpty)
        // More while it waits: still coalesced in the outbox, no job for a socket that cannot take them.
        socket.outbox.put(.location(Self.at(101)))
        loop.run()
        #expect(try socket.written().isEmpty)
        #expect(socket.outbox.count == 1)
        socket.channel.isWritable = true
        socket.channel.pipeline.fireChannelWritabilityChanged()
        #expect(try socket.written() == [.location(Self.at(101))])
        socket.outbox.put(.location(Self.at(102)))
        loop.run()
        #expect(try socket.written() == [.location(Self.at(102))])
    }

    @Test func nothingIsWrittenAfterACloseFrame() throws {
        let loop = EmbeddedEventLoop()
        let writes = LoopWrites(eventLoop: loop)
        let socket = try Socket(loop: loop, writes: writes)
        try socket.channel.writeOutbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
        let close = try socket.channel.readOutbound(as: ByteBuffer.self)
        #expect(close?.getInteger(at: close?.readerIndex ?? 0, as: UInt8.self) == 0x88, "the close frame's header")
        #expect(try socket.channel.readOutbound(as: ByteBuffer.self)?.readableBytes == 0, "its empty payload")
        socket.outbox.put(.location(Self.at(1)))
        loop.run()
        #expect(try socket.written().isEmpty)
    }

    @Test func theEndIsTheLastMessageWrittenAndIsReported() async throws {
        // The embedded loop and channel are used before the first await only (one thread).
        let loop = EmbeddedEventLoop()
        let writes = LoopWrites(eventLoop: loop)
        let socket = try Socket(loop: loop, writes: writes)
        socket.outbox.put(.location(Self.at(1)))
        socket.outbox.put(.end(name: "bob"))
        socket.outbox.put(.location(Self.at(2)))
        loop.run()
        #expect(try socket.written() == [.location(Self.at(1)), .end(name: "bob")])
        var ended = socket.writer.ended.makeAsyncIterator()
        #expect(await ended.next() == "bob")
        #expect(await ended.next() == nil)
    }

    /// A frame's header gives its text's length in 7, 16 or 64 bits (RFC 6455 5.2), whichever fits.
    @Test func framesOfEverySizeAreWrittenWhole() throws {
        let loop = EmbeddedEventLoop()
        let writes = LoopWrites(eventLoop: loop)
        let socket = try Socket(loop: loop, writes: writes)
        let story = SessionStory(id: "tale", version: "1", url: "/")
        let messages: [SessionMessage] = [
            .location(Self.at(1)),
            .welcome(SessionWelcome(story: story, owner: "bob", location: Self.at(1), participants: (0..<20).map { "reader \($0)" })),
            .welcome(SessionWelcome(story: story, owner: "bob", location: Self.at(1), participants: (0..<3000).map { "a reader of the lantern \($0)" })),
        ]
        let sizes = messages.map { FollowerOutbox.Outgoing($0, encodeNow: true).bytes.readableBytes }
        #expect(sizes[0] < 126 && (126...0xFFFF).contains(sizes[1]) && sizes[2] > 0xFFFF, "\(sizes)")
        for message in messages {
            socket.outbox.put(message)
            loop.run()
            #expect(try socket.texts() == [SessionCodec.encode(message)])
        }
    }
}
