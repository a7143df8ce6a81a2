import NIOCore
import Testing
@testable import PajamaCoReading

/// A follower's message put together from its frames, the size limit checked at each frame (issue 26).
struct MessageAssemblyTests {
    @Test func fragmentsMakeOneMessage() {
        var assembly = MessageAssembly(limit: 100)
        #expect(assembly.add(opcode: .text, fin: false, data: ByteBuffer(string: "{\"v\":1,")) == .more)
        #expect(assembly.add(opcode: .continuation, fin: true, data: ByteBuffer(string: "\"x\":2}")) == .text("{\"v\":1,\"x\":2}"))
        // The next message starts afresh.
        #expect(assembly.add(opcode: .text, fin: true, data: ByteBuffer(string: "ok")) == .text("ok"))
    }

    @Test func theLimitIsCheckedAtTheFragmentThatPassesIt() {
        var assembly = MessageAssembly(limit: 100)
        #expect(assembly.add(opcode: .text, fin: false, data: ByteBuffer(repeating: 0x61, count: 60)) == .more)
        #expect(assembly.add(opcode: .continuation, fin: false, data: ByteBuffer(repeating: 0x61, count: 60)) == .refused(.tooLarge(size: 120)))
    }

    @Test func binaryAndStrayFramesAreRefused() {
        var assembly = MessageAssembly(limit: 100)
        #expect(assembly.add(opcode: .binary, fin: true, data: ByteBuffer(string: "x")) == .refused(.binary))
        #expect(assembly.add(opcode: .continuation, fin: true, data: ByteBuffer(string: "x"))
            == .refused(.malformed("a continuation frame with no message")))
        #expect(assembly.add(opcode: .text, fin: true, data: ByteBuffer(bytes: [0xFF, 0xFE])) == .refused(.malformed("not UTF-8")))
    }
}

/// Wrong tokens from one address (issue 26), on a clock the test moves.
struct WrongTokenThrottleTests {
    @Test func aBurstPausesTheAddressForDoublingTimesAndLogsOnce() {
        let limits = HostLimits(wrongTokenBurst: 3, wrongTokenWindow: .seconds(10), firstPause: .seconds(1), longestPause: .seconds(4))
        let throttle = WrongTokenThrottle(limits: limits)
        var now = ContinuousClock.now
        #expect(throttle.wrong(from: "10.0.0.1", now: now) == nil)
        #expect(throttle.wrong(from: "10.0.0.1", now: now) == nil)
        #expect(throttle.wrong(from: "10.0.0.1", now: now)?.hasPrefix("slowing down 10.0.0.1: 3 wrong tokens") == true)
        #expect(throttle.verdict(for: "10.0.0.1", now: now) == .paused(.seconds(1)))
        #expect(throttle.verdict(for: "10.0.0.2", now: now) == .check)
        now += .seconds(1)
        #expect(throttle.verdict(for: "10.0.0.1", now: now) == .check)
        for _ in 0..<2 { #expect(throttle.wrong(from: "10.0.0.1", now: now) == nil) }
        let second = throttle.wrong(from: "10.0.0.1", now: now)
        #expect(second?.contains("refused for 2.0 s") == true, "\(second ?? "")")
        #expect(second?.contains("1 requests were refused during its last pause") == true, "\(second ?? "")")
    }
}
