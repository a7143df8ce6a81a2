import Foundation
import PajamaTestSupport
import Testing

/// Inside tmux (which passes no graphics through) pictures are cells, and the log and `pajama doctor` say
/// why; the terminal's answers to the picture queries never reach the reader as keys.
@Suite(.serialized) struct PixelPicturesTmuxEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    func waitForLog(_ url: URL, containing text: String) -> String? {
        var found: String?
        Poll.until(timeout: TmuxSession.defaultTimeout) {
            found = (try? String(contentsOf: url, encoding: .utf8)).flatMap { $0.contains(text) ? $0 : nil }
            return found != nil
        }
        return found
    }

    @Test func insideTmuxPicturesAreCellsAndTheLogSaysWhy() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--log-level", "info", story], width: 100, height: 30)
        defer { t.stop() }
        _ = try t.waitFor("The Lantern Keeper")
        let log = t.home.url.appendingPathComponent("state/pajama/pajama.log")
        #expect(waitForLog(log, containing: "pictures: cells: inside tmux") != nil, "log: \(String(describing: try? String(contentsOf: log, encoding: .utf8)))")
    }

    @Test func doctorSaysPicturesAreCellsInsideTmux() throws {
        let t = try TmuxSession([pajama, "doctor"], width: 160, height: 50)
        defer { t.stop() }
        let screen = try t.waitFor("[exited")
        #expect(screen.contains("pictures: cells: inside tmux"), "\(screen)")
    }

    /// Forced to sixel inside tmux, the queries are asked of tmux, which answers the device attributes: the
    /// answer is read by the probe, not taken as keys (a "6" or "2" would take a choice, "c" nothing), and
    /// the reader starts on its first page as it would in cells.
    @Test func theRepliesNeverArriveAsKeys() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--log-level", "info", "--pictures", "sixel", story], width: 100, height: 30)
        defer { t.stop() }
        let first = try t.waitFor("The Lantern Keeper")
        let log = t.home.url.appendingPathComponent("state/pajama/pajama.log")
        #expect(waitForLog(log, containing: "pictures: ") != nil)
        // Still reading, in the state a first page is in: help opens (an Escape from a reply would have quit).
        t.send("?")
        _ = try t.waitFor("any key to close")
        t.send("Space")
        t.send("q")
        // The modes line comes after the exit status: wait for it, not for the status alone (under load the
        // pane was read between the two lines, and the modes looked lost).
        let end = try t.waitFor("modes:")
        #expect(end.contains("[exited 0]"), "\(first)\n---\n\(end)")
        let modes = end.components(separatedBy: "modes:").last?.split(whereSeparator: \.isWhitespace).map(String.init) ?? []
        #expect(modes.contains("echo") && modes.contains("icanon"), "the terminal's modes were given back: \(end)")
    }
}
