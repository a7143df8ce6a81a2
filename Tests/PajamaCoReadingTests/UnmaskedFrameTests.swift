import Foundation
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// RFC 6455, section 5.1: a server closes the connection on a frame from the client that is not masked, with
/// 1002 (protocol error). Before (issue 42, item 6) the host read an unmasked hello as any other.
@Suite(.serialized) struct UnmaskedFrameTests {
    /// A text frame of `payload` (under 126 bytes), masked with `key` or not.
    static func textFrame(_ payload: String, key: [UInt8]?) -> [UInt8] {
        let bytes = Array(payload.utf8)
        precondition(bytes.count < 126)
        guard let key else { return [0x81, UInt8(bytes.count)] + bytes }
        return [0x81, 0x80 | UInt8(bytes.count)] + key + bytes.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    @Test func anUnmaskedFrameIsRefusedWith1002AndAMaskedOneIsRead() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, log: { log.append($0) })
        let hello = SessionCodec.encode(.hello(name: "ann"))

        let (unmasked, head) = try HelloBeforeCapTests.silentSocket(host)
        #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
        unmasked.send(bytes: Self.textFrame(hello, key: nil))
        let (bytes, closed) = unmasked.receiveUntilClosed(timeout: .seconds(30))
        #expect(closed)
        // The one frame back is a close frame: 1002 and the reason; no welcome.
        let reason = UnmaskedFrameGuard.reason
        #expect(bytes == [0x88, UInt8(2 + reason.utf8.count), 0x03, 0xEA] + Array(reason.utf8), "\(bytes)")
        #expect(await host.session.current.participants.isEmpty)
        #expect(log.all.contains { $0.hasPrefix("closed a socket from 127.0.0.1: \(reason) (1002)") }, "\(log.all)")

        // The same hello masked, as every client sends it, is welcomed.
        let (masked, maskedHead) = try HelloBeforeCapTests.silentSocket(host)
        #expect(maskedHead.hasPrefix("HTTP/1.1 101"), "\(maskedHead)")
        masked.send(bytes: Self.textFrame(hello, key: [0x12, 0x34, 0x56, 0x78]))
        #expect(masked.read(until: "\"welcome\"", timeout: .seconds(30)).hasSuffix("\"welcome\""))
        #expect(await eventually { await host.session.current.participants == ["ann"] })
        await host.end()
    }
}
