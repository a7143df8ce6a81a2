import Foundation
import PajamaTestSupport
import Testing

/// A small terminal (40x12, issue 27 item 4): the selected choice is always on screen (the page scrolls to
/// it), and the status line drops whole items rather than cutting one mid-word.
@Suite(.serialized) struct SmallTerminalEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func theSelectedChoiceScrollsIntoView() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", story], width: 40, height: 12)
        defer { t.stop() }
        try t.waitFor("The Puffin")
        t.send("Down")
        // The second choice, selected, is on screen: its highlighted row shows its text.
        try t.waitUntil("the second choice on screen") { $0.contains("Take the little") }
        #expect(t.attributes(at: "Take") != nil)
        t.send("Down")
        try t.waitUntil("the first choice on screen again") { $0.contains("Climb the") }
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func theStatusLineDropsWholeItems() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story], width: 40, height: 12)
        defer { t.stop() }
        let screen = try t.waitFor("page read")
        let status = screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains("page read") } ?? ""
        // "1 page read · 1 of 11 beats seen" does not fit beside the sound's status: the beats item goes whole.
        let left = status.components(separatedBy: "  ").first { $0.contains("page read") }?.trimmingCharacters(in: .whitespaces) ?? ""
        let items = left.components(separatedBy: " · ")
        #expect(items.allSatisfy { $0.hasSuffix("read") || $0.hasSuffix("beats seen") || $0 == "seen before" }, "\(status)")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func theHelpOverlayWrapsAndScrolls() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story], width: 40, height: 12)
        defer { t.stop() }
        try t.waitFor("page read")
        try t.press("?", thenWaitFor: "Keys")
        // Scrolled to its end, every line of it has been on screen, none cut at the box's edge.
        var seen = t.screen()
        for _ in 0..<30 where !seen.contains("any key to close") {
            t.send("Down")
            seen += try t.waitUntil("the help scrolled") { _ in true }
        }
        try t.waitFor("any key to close")
        let flat = seen.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ▲▼│")) }.joined(separator: " ")
        #expect(flat.contains("restart (asks first)") || flat.contains("restart (asks"), "\(seen)")
        #expect(!t.screen().contains("A short story for a stormy night"), "the overlay is still up while scrolling")
        t.send("x")
        try t.waitUntil("the help closed") { !$0.contains("any key to close") }
        try t.press("q", thenWaitFor: "[exited 0]")
    }
}
