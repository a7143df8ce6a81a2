import Foundation
import PajamaImage
import Testing
@testable import PajamaTerminal

/// The terminal's answers to the picture queries: parsed whole, in pieces, with junk around them, cut off;
/// and the mode each answer leads to.
@Suite struct GraphicsRepliesTests {
    static let xtermVT340 = "\u{1B}[?2;0;1000;1000S\u{1B}[6;17;8t\u{1B}[?63;1;2;4;6;9;15;16;22;28c"
    static let kitty = "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c"

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func xtermAsVT340SaysSixelItsGeometryAndCellSize() {
        let replies = GraphicsReplies(bytes(Self.xtermVT340))
        #expect(replies.isComplete)
        #expect(replies.sixel)
        #expect(replies.kitty == nil)
        #expect(replies.sixelGeometry == .init(width: 1000, height: 1000))
        #expect(replies.cellSize == .init(width: 8, height: 17))
        #expect(replies.other.isEmpty)
    }

    @Test func kittyAnswersItsQuery() {
        let replies = GraphicsReplies(bytes(Self.kitty))
        #expect(replies.isComplete)
        #expect(replies.kitty == true)
        #expect(!replies.sixel)
        #expect(replies.cellSize == .init(width: 10, height: 20))
    }

    /// OSC 11: the background, in 1 to 4 hex digits a channel, ended by ST or BEL.
    @Test func theBackgroundColour() {
        #expect(GraphicsReplies(bytes("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;c")).background == 0xFFFFFF)
        #expect(GraphicsReplies(bytes("\u{1B}]11;rgb:1e1e/2020/3030\u{07}")).background == 0x1E2030)
        #expect(GraphicsReplies(bytes("\u{1B}]11;rgb:f/8/0\u{07}")).background == 0xFF8800)
        #expect(GraphicsReplies(bytes("\u{1B}]11;rgb:zz/00/00\u{07}\u{1B}]11;#000\u{07}")).background == nil)
    }

    @Test func aKittyErrorIsNoKitty() {
        let replies = GraphicsReplies(bytes("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;22c"))
        #expect(replies.kitty == false)
        #expect(replies.isComplete)
    }

    /// Every split of the reply into two pieces, and one byte at a time, parses as the whole does.
    @Test(arguments: [xtermVT340, kitty])
    func piecesParseAsTheWhole(reply: String) {
        let whole = GraphicsReplies(bytes(reply))
        let all = bytes(reply)
        for cut in 1..<all.count {
            var replies = GraphicsReplies()
            replies.feed(Array(all[..<cut]))
            #expect(!replies.isComplete, "complete after \(cut) of \(all.count) bytes")
            replies.feed(Array(all[cut...]))
            #expect(replies == whole, "cut at \(cut)")
        }
        var bytewise = GraphicsReplies()
        for byte in all { bytewise.feed([byte]) }
        #expect(bytewise == whole)
    }

    /// Keys typed meanwhile and replies to questions nobody here asked are set aside, not taken for answers.
    @Test func junkAroundTheRepliesIsSetAside() {
        let junk = "jk\u{1B}[0n\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?1;2c-not-last\u{1B}[6;;8t\u{1B}_Gi=7;OK\u{1B}\\q"
        var replies = GraphicsReplies(bytes(junk))
        #expect(replies.other == bytes("jk-not-lastq"))
        #expect(replies.kitty == nil)  // another id's reply
        #expect(replies.cellSize == nil)  // not numbers
        #expect(replies.deviceAttributes == [1, 2])
        #expect(!replies.sixel)
        replies.feed(bytes("\u{1B}"))
        #expect(replies.isPartial)
    }

    /// A reply cut off (the terminal went quiet): not complete, the bytes kept, nothing made up.
    @Test func aCutReplyIsPartialAndIncomplete() {
        let replies = GraphicsReplies(bytes("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?63;1;4"))
        #expect(!replies.isComplete)
        #expect(replies.isPartial)
        #expect(replies.kitty == true)
        let graphics = TerminalGraphics.decide(.auto, replies: replies, kernelCellSize: .init(width: 9, height: 18), multiplexer: nil)
        #expect(graphics.pixels == nil)
        #expect(graphics.reason.contains("did not answer within 100 ms"))
    }

    // MARK: The mode chosen

    @Test func kittyIsPreferredThenSixelThenCells() {
        let both = GraphicsReplies(bytes("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;4c"))
        #expect(TerminalGraphics.decide(.auto, replies: both, kernelCellSize: nil, multiplexer: nil).pixels == PixelFormat(.kitty, cellWidth: 10, cellHeight: 20))
        let sixel = TerminalGraphics.decide(.auto, replies: GraphicsReplies(bytes(Self.xtermVT340)), kernelCellSize: nil, multiplexer: nil)
        #expect(sixel.pixels == PixelFormat(.sixel, cellWidth: 8, cellHeight: 17, maximumWidth: 1000, maximumHeight: 1000))
        #expect(sixel.name == "sixel")
        let none = TerminalGraphics.decide(.auto, replies: GraphicsReplies(bytes("\u{1B}[?62;22c")), kernelCellSize: nil, multiplexer: nil)
        #expect(none.pixels == nil)
        #expect(none.reason.contains("neither sixel nor the kitty"))
    }

    @Test func theKernelsCellSizeServesWhenTheTerminalGivesNone() {
        let replies = GraphicsReplies(bytes("\u{1B}[?62;4c"))
        let graphics = TerminalGraphics.decide(.auto, replies: replies, kernelCellSize: .init(width: 7, height: 14), multiplexer: nil)
        #expect(graphics.pixels == PixelFormat(.sixel, cellWidth: 7, cellHeight: 14))
        let unknown = TerminalGraphics.decide(.auto, replies: replies, kernelCellSize: nil, multiplexer: nil)
        #expect(unknown.pixels == nil)
        #expect(unknown.reason.contains("cell size"))
    }

    @Test func insideTmuxOrScreenPicturesAreCellsAndItIsSaid() {
        #expect(TerminalGraphics.multiplexer(in: ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "xterm-256color"]) == "tmux")
        #expect(TerminalGraphics.multiplexer(in: ["TERM": "screen-256color"]) == "screen")
        #expect(TerminalGraphics.multiplexer(in: ["STY": "1.pts-0.host", "TERM": "xterm"]) == "screen")
        #expect(TerminalGraphics.multiplexer(in: ["TERM": "xterm-kitty"]) == nil)
        let graphics = TerminalGraphics.decide(.auto, replies: GraphicsReplies(bytes(Self.kitty)), kernelCellSize: nil, multiplexer: "tmux")
        #expect(graphics.pixels == nil)
        #expect(graphics.reason.contains("inside tmux"))
        let forced = TerminalGraphics.decide(.kitty, replies: GraphicsReplies(bytes(Self.kitty)), kernelCellSize: nil, multiplexer: "tmux")
        #expect(forced.pixels?.pixelProtocol == .kitty)
    }

    @Test func picturesOptionOverrides() {
        let replies = GraphicsReplies(bytes(Self.kitty))
        #expect(TerminalGraphics.decide(.cells, replies: replies, kernelCellSize: nil, multiplexer: nil).pixels == nil)
        #expect(TerminalGraphics.decide(.sixel, replies: replies, kernelCellSize: nil, multiplexer: nil).pixels?.pixelProtocol == .sixel)
        #expect(GraphicsProbe.detect(.cells).reason == "cells (--pictures cells)")
    }
}

/// The probe against a real pseudo-terminal: the query is written, the replies read, none left behind.
@Suite struct GraphicsProbeTests {
    /// A pty pair: the test plays the terminal on `controller`; the probe reads and writes `device`.
    final class PTY {
        let controller: Int32
        let device: Int32
        init() throws {
            var controller: Int32 = -1, device: Int32 = -1
            guard openpty(&controller, &device, nil, nil, nil) == 0 else { throw POSIXError(.EIO) }
            (self.controller, self.device) = (controller, device)
        }
        deinit {
            close(controller)
            close(device)
        }
        func terminalSays(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
        }
        /// What the probe wrote to the terminal.
        func written() -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            while poll(&request, 1, 0) > 0 {
                let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                out += buffer.prefix(count)
            }
            return out
        }
        /// Whether the device has input left unread.
        var inputLeft: Bool {
            var request = pollfd(fd: device, events: Int16(POLLIN), revents: 0)
            return poll(&request, 1, 0) > 0
        }
        /// Raw mode, as the probe sets it, so replies written before it runs are readable at once.
        func raw() {
            var mode = termios()
            tcgetattr(device, &mode)
            cfmakeraw(&mode)
            tcsetattr(device, TCSANOW, &mode)
        }
    }

    @Test func repliesAreReadAndNoneIsLeftInTheInput() throws {
        let pty = try PTY()
        pty.raw()
        pty.terminalSays(GraphicsRepliesTests.kitty)
        let replies = GraphicsProbe.ask(input: pty.device, output: pty.device, timeout: .seconds(5))
        #expect(replies.isComplete)
        #expect(replies.kitty == true)
        #expect(!pty.inputLeft)
        #expect(pty.written() == GraphicsProbe.query)
        var mode = termios()
        tcgetattr(pty.device, &mode)
        #expect(mode.c_lflag & tcflag_t(ICANON) == 0, "the terminal's own mode is given back (raw here)")
    }

    /// A terminal that never answers costs the timeout and no more: the probe returns incomplete.
    @Test func aSilentTerminalTimesOut() throws {
        let pty = try PTY()
        let started = ContinuousClock.now
        let replies = GraphicsProbe.ask(input: pty.device, output: pty.device, timeout: .milliseconds(100))
        #expect(!replies.isComplete)
        #expect(ContinuousClock.now - started < .seconds(5))
        var mode = termios()
        tcgetattr(pty.device, &mode)
        #expect(mode.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "canonical mode and echo restored")
    }

    @Test func aPipeIsNotAsked() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let graphics = GraphicsProbe.detect(.auto, environment: ["TERM": "xterm"], input: fds[0], output: fds[1])
        #expect(graphics.pixels == nil)
        #expect(graphics.reason.contains("not a terminal"))
    }
}

/// Replies that come after the probe stopped waiting are taken out of the keys; keys typed among them stay.
@Suite struct LateRepliesTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func lateRepliesAreNoKeys() {
        var late = LateReplies()
        #expect(late.keys(in: bytes("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;18;9t")).isEmpty)
        #expect(!late.isDone)
        #expect(late.keys(in: bytes("\u{1B}[?62;cj")) == bytes("j"))
        #expect(late.isDone)
    }

    @Test func aLoneEscapeIsTheEscapeKey() {
        var late = LateReplies()
        #expect(late.keys(in: [0x1B]) == [0x1B])
        #expect(!late.isDone)
    }

    /// A reply cut when the probe stopped waiting is continued by the late filter; once the last reply is in,
    /// `replies` holds those of the wait and the late ones.
    @Test func theRepliesOfTheWaitAreContinued() {
        var late = LateReplies(continuing: GraphicsReplies(bytes("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;2")))
        #expect(late.isPartial)
        #expect(late.keys(in: bytes("0;10t")).isEmpty)
        #expect(late.keys(in: bytes("\u{1B}[?62;c")).isEmpty)
        #expect(late.isDone)
        #expect(late.replies.kitty == true && late.replies.cellSize == .init(width: 10, height: 20))
    }

    /// Late replies that say pixels turn a session in cells to pixels, unless it is pixels already, or they
    /// say cells too; replies still missing change nothing.
    @Test func lateRepliesThatSayPixelsTurnCellsToPixels() throws {
        var waited = TerminalGraphics.decide(.auto, replies: GraphicsReplies(), kernelCellSize: nil, multiplexer: nil)
        waited.pendingReplies = GraphicsReplies()
        #expect(waited.pixels == nil)
        let kitty = try #require(waited.afterLateReplies(GraphicsReplies(bytes(GraphicsRepliesTests.kitty))))
        #expect(kitty.pixels == PixelFormat(.kitty, cellWidth: 10, cellHeight: 20))
        #expect(kitty.reason.contains("after the 100 ms wait"), "\(kitty.reason)")
        #expect(!kitty.repliesPending)
        #expect(waited.afterLateReplies(GraphicsReplies(bytes("\u{1B}[?62;c"))) == nil, "no graphics: cells stay")
        #expect(waited.afterLateReplies(GraphicsReplies(bytes("\u{1B}_Gi=31;OK\u{1B}\\"))) == nil, "not complete yet")
        let vt340 = try #require(waited.afterLateReplies(GraphicsReplies(bytes(GraphicsRepliesTests.xtermVT340))))
        #expect(vt340.pixels == PixelFormat(.sixel, cellWidth: 8, cellHeight: 17, maximumWidth: 1000, maximumHeight: 1000))
        // Forced sixel without a cell size was cells: the late cell size makes it sixel.
        var forced = TerminalGraphics.decide(.sixel, replies: GraphicsReplies(), kernelCellSize: nil, multiplexer: nil)
        (forced.pendingReplies, forced.choice) = (GraphicsReplies(), .sixel)
        #expect(forced.afterLateReplies(GraphicsReplies(bytes(GraphicsRepliesTests.kitty)))?.pixels?.pixelProtocol == .sixel)
        // Already pixels: nothing changes.
        var pixels = TerminalGraphics.decide(.kitty, replies: GraphicsReplies(), kernelCellSize: .init(width: 9, height: 18), multiplexer: nil)
        (pixels.pendingReplies, pixels.choice) = (GraphicsReplies(), .kitty)
        #expect(pixels.afterLateReplies(GraphicsReplies(bytes(GraphicsRepliesTests.xtermVT340))) == nil)
        // Not asked (nothing pending): nothing changes.
        #expect(TerminalGraphics.cells("cells (--pictures cells)").afterLateReplies(GraphicsReplies(bytes(GraphicsRepliesTests.kitty))) == nil)
    }

    /// A reply cut between two reads: the rest is taken out too, not read as keys.
    @Test func aCutReplyIsContinued() {
        var late = LateReplies()
        #expect(late.keys(in: bytes("\u{1B}[?63;1;")).isEmpty)
        #expect(late.isPartial)
        #expect(late.keys(in: bytes("4c")).isEmpty)
        #expect(late.isDone)
    }
}
