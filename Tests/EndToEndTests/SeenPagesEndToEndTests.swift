import Foundation
import PajamaTestSupport
import Testing

/// The status line for readers, seen pages across sessions, `>` and `a` on the real binary.
@Suite(.serialized) struct SeenPagesEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func theStatusLineSaysHowFarAlongAndSeenPagesAreSkippedInTheNextSession() throws {
        let home = try TemporaryDirectory(prefix: "pajama-seen-e2e")
        defer { home.remove() }
        let first = try TmuxSession([pajama, "read", "--no-sound", story], home: home)
        let opening = try first.waitFor("1 page read · 1 of 11 beats seen")
        #expect(!opening.contains("start · page"), "no beat ids without --stats: \(opening)")
        try first.waitFor("▸ ready")  // the rock page is in the same beat, with nothing critical
        try first.press("Space", thenWaitFor: "On a rock")
        try first.press("Left", thenWaitFor: "3 pages read · 1 of 11 beats seen · seen before")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()  // stop() would remove the home

        // Another session, from the start: the title page was seen; > goes through it and the rock page
        // (seen, though not to its last line) and stops on the storm page, never seen.
        let second = try TmuxSession([pajama, "read", "--no-sound", "--restart", story], home: home)
        defer { second.stop() }
        try second.waitFor("1 page read · 1 of 11 beats seen · seen before")
        let storm = try second.press(">", thenWaitFor: "Thunder walked")
        #expect(storm.contains("3 pages read · 2 of 11 beats seen") && !storm.contains("seen before"), "\(storm)")
        // Auto-forward reveals the next line with no key pressed, then a key stops it.
        try second.press("a", thenWaitFor: "auto-forward on")
        try second.waitFor("Then, with")
        try second.press("x", thenWaitFor: "auto-forward off")
        try second.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func withStatsTheStatusLineNamesTheBeatAndPage() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--stats", story], width: 120, height: 30)
        defer { t.stop() }
        try t.waitFor("start · page 1/2 · 1 page read · 1 of 11 beats seen")
    }
}
