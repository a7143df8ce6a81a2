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
}
