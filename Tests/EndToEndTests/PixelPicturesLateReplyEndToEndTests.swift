import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// A terminal that answers the picture queries late (after the probe's 100 ms): the real binary on a
/// pseudo-terminal the test plays. The replies are held back until the reader has drawn its first page in
/// cells (so the probe has certainly stopped waiting: no sleep decides it), then sent; pixels follow when
/// they say so, and the replies are never read as keys.
@Suite(.serialized) struct PixelPicturesLateReplyEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// The test's side of a pseudo-terminal (`controller`) and the device the program reads and writes.
    final class Terminal {
        let controller: Int32
        let devicePath: String
        private var seen: [UInt8] = []

        init(columns: Int, rows: Int) throws {
            var controller: Int32 = -1, device: Int32 = -1
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)  // no pixel sizes: the replies tell them
            guard openpty(&controller, &device, nil, nil, &size) == 0, let name = ttyname(device) else { throw POSIXError(.EIO) }
            (self.controller, devicePath) = (controller, String(cString: name))
            close(device)  // the program opens it by name
        }
        deinit { close(controller) }

        func say(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
        }

        /// Reads what the program writes until what came since the last `clear()` contains `needle`, for
        /// `timeout` seconds at most.
        func waitFor(_ needle: String, timeout: TimeInterval = 30) -> Bool {
            let needle = Array(needle.utf8)
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !contains(needle) {
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { return false }
                var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, Int32(min(left, 1) * 1000)) >= 0 else { return false }
                guard request.revents & Int16(POLLIN) != 0 else {
                    if request.revents & Int16(POLLHUP) != 0 { return false }  // the program closed the terminal
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
                guard count > 0 else { return false }
                seen += buffer.prefix(count)
            }
            return true
        }

        func contains(_ needle: [UInt8]) -> Bool {
            guard seen.count >= needle.count else { return false }
            return seen.indices.dropLast(needle.count - 1).contains { at in seen[at] == needle[0] && Array(seen[at..<(at + needle.count)]) == needle }
        }

        func clear() { seen = [] }
    }

    /// Starts the reader on `terminal` (`--pictures auto`), and answers nothing until its first page is up.
    func start(on terminal: Terminal, story: TemporaryDirectory, home: TemporaryDirectory) throws -> pid_t {
        var environment = Paths.environment(home: home.path)
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = "/usr/bin:/bin"
        let pid = try ChildProcess.spawn(pajama, ["read", "--no-sound", "--log-level", "info", story.path], inputFile: terminal.devicePath,
                                         outputFile: terminal.devicePath, errorFile: home.path + "/stderr", environment: environment)
        #expect(terminal.waitFor("\u{1B}[c"), "the picture queries were not asked")
        #expect(terminal.waitFor("A page with a picture."), "no first page")
        return pid
    }

    static func log(_ home: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: home.path + "/state/pajama/pajama.log", encoding: .utf8)) ?? "(no log)"
    }

    @Test func kittyRepliesAfterTheWaitBringPixels() throws {
        let terminal = try Terminal(columns: 100, rows: 30)
        let story = try PixelPicturesXvfbEndToEndTests.makeStory(), home = try TemporaryDirectory(prefix: "pajama-late-home")
        defer { story.remove(); home.remove() }
        let pid = try start(on: terminal, story: story, home: home)
        defer { ChildProcess.terminate(pid) }
        #expect(Self.log(home).contains("pictures: cells: the terminal did not answer within 100 ms"))
        // The replies, late: kitty graphics, 10x20-pixel cells, the device attributes last.
        terminal.clear()
        terminal.say("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;22c")
        try #require(terminal.waitFor("\u{1B}_Ga=t,i="), "no kitty transmission after the late replies; log: \(Self.log(home).suffix(800))")
        #expect(terminal.waitFor("\u{1B}_Ga=p,i="), "the picture was not placed")
        #expect(Self.log(home).contains("its replies came after the 100 ms wait"))
        // The replies were no keys (an Escape among them would have quit): the reader reads on.
        terminal.clear()
        terminal.say(" ")
        #expect(terminal.waitFor("A page without one."), "the next page did not come")
        #expect(terminal.waitFor("\u{1B}_Ga=d,d=i,i="), "the picture's placement was not deleted")
        terminal.say("q")
        #expect(terminal.waitFor("\u{1B}_Ga=d,d=I,i="), "the picture was not freed at exit")
        #expect(Poll.until(timeout: 20) { ChildProcess.exitDescription(pid) != nil }, "the reader did not quit on q")
    }

    /// Late replies of a terminal with no graphics: cells stay, nothing in pixels is sent, the keys work.
    @Test func lateRepliesWithoutGraphicsKeepCells() throws {
        let terminal = try Terminal(columns: 100, rows: 30)
        let story = try PixelPicturesXvfbEndToEndTests.makeStory(), home = try TemporaryDirectory(prefix: "pajama-late-home")
        defer { story.remove(); home.remove() }
        let pid = try start(on: terminal, story: story, home: home)
        defer { ChildProcess.terminate(pid) }
        terminal.clear()
        terminal.say("\u{1B}[6;20;10t\u{1B}[?62;22c")
        #expect(Poll.until(timeout: 20) { Self.log(home).contains("late replies came; pictures stay cells") }, "log: \(Self.log(home).suffix(800))")
        terminal.say(" ")
        #expect(terminal.waitFor("A page without one."), "the next page did not come")
        #expect(!terminal.contains(Array("\u{1B}_G".utf8)), "kitty commands in cells mode")
        terminal.say("q")
        #expect(Poll.until(timeout: 20) { ChildProcess.exitDescription(pid) != nil }, "the reader did not quit on q")
    }

    /// `pajama doctor` waits for the late replies as the reader takes them: once it says it is waiting
    /// (the probe's 100 ms are over), the replies come, and it reports kitty pixels, not cells.
    @Test func doctorWaitsForLateRepliesAsTheReaderDoes() throws {
        let terminal = try Terminal(columns: 100, rows: 30)
        let home = try TemporaryDirectory(prefix: "pajama-late-doctor")
        defer { home.remove() }
        var environment = Paths.environment(home: home.path)
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = "/usr/bin:/bin"
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        let pid = try ChildProcess.spawn(pajama, ["doctor"], inputFile: terminal.devicePath, outputFile: terminal.devicePath,
                                         errorFile: home.path + "/stderr", environment: environment)
        defer { ChildProcess.terminate(pid) }
        #expect(terminal.waitFor("\u{1B}[c"), "the picture queries were not asked")
        #expect(terminal.waitFor("waiting for the terminal's answers"), "doctor did not wait for late replies")
        terminal.clear()
        terminal.say("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;22c")
        #expect(terminal.waitFor("pictures: kitty"), "doctor did not take the late replies")
        #expect(Poll.until(timeout: 30) { ChildProcess.exitDescription(pid) != nil }, "doctor did not finish")
    }
}
