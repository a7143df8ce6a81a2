import PajamaModel
import Testing
@testable import PajamaCoReading

/// The host's log lines (issue 26): a flood cannot rotate the log away, and what a stranger wrote is cut.
struct HostLogTests {
    @Test func aFloodWritesAtMostTheWindowsLinesThenSaysHowManyWereLeftOut() {
        let clock = Locked(ContinuousClock.now)
        let lines = Lines()
        let log = HostLog(linesPerWindow: 50, window: .seconds(10), now: { clock.withLock { $0 } }, write: { lines.append($0) })
        for index in 0..<100_000 { log("refused request \(index)") }
        #expect(lines.all.count == 50)
        clock.withLock { $0 += .seconds(11) }
        log("the next window")
        #expect(lines.all.count == 52)
        #expect(lines.all[50] == "99950 more lines like these were left out of the log (at most 50 in 10.0 seconds)")
        #expect(lines.all[51] == "the next window")
    }

    @Test func textAStrangerWroteIsMadePrintableAndCut() {
        #expect(HostLog.shown("/a\u{1B}[2Jb\n") == "/a\u{FFFD}[2Jb\u{FFFD}")
        let long = "/" + String(repeating: "x", count: 80_000)
        #expect(HostLog.shown(long) == "/" + String(repeating: "x", count: 99) + "… (80001 bytes)")
    }
}
