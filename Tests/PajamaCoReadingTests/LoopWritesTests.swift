import NIOCore
import NIOEmbedded
import NIOWebSocket
import PajamaCore
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
            channel = EmbeddedChannel(loop: loop)
            if let order { try channel.pipeline.syncOperations.addHandler(WriteOrder(number: number, order: order)) }
            writer = try FollowerChannelWriter(channel: channel, loop: writes)
            writer.start(outbox)
        }

        /// The text frames written so far, decoded.
        func written() throws -> [SessionMessage] {
            var messages: [SessionMessage] = []
            while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
                #expect(frame.opcode == .text && frame.fin)
                messages.append(try SessionCodec.decode(String(buffer: frame.data)))
            }
            return messages
        }
    }

    /// Notes the socket's number in a shared list when a frame goes out through it.
    final class WriteOrder: ChannelOutboundHandler {
        typealias OutboundIn = WebSocketFrame
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
        socket.outbox.put(.location(Self.at(1)))
        loop.run()
        let frame = try socket.channel.readOutbound(as: WebSocketFrame.self)
        #expect(frame?.opcode == .connectionClose)
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
}
