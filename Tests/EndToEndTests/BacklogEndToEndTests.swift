import Foundation
import PajamaTestSupport
import Testing

/// The backlog (`b`) on the real binary: the pages read and the choice taken, Enter going back to one, Esc
/// closing it, and the saved history's pages in a later session.
@Suite(.serialized) struct BacklogEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func theBacklogShowsThePagesReadAndGoesBackToOne() throws {
        let home = try TemporaryDirectory(prefix: "pajama-backlog-e2e")
        defer { home.remove() }
        let first = try TmuxSession([pajama, "read", "--no-sound", "--start", "lamp_room/how_to_light", story], home: home)
        try first.waitFor("How will Mina light the lamp?")
        try first.press("1", thenWaitFor: "Mina cupped her hands")
        var backlog = try first.press("b", thenWaitFor: "Backlog")
        #expect(backlog.contains("→ Strike the very last dry match"), "\(backlog)")
        // Esc closes it (and does not quit).
        first.send("Escape")
        #expect(Poll.until(timeout: TmuxSession.defaultTimeout) { !first.screen().contains("Backlog") }, "Esc closes the backlog")
        try first.press("Space", thenWaitFor: "The match coughed")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()  // stop() would remove the home

        // Another session: the saved history's pages are in the backlog; Enter on one goes back to it.
        let second = try TmuxSession([pajama, "read", "--no-sound", story], home: home)
        defer { second.stop() }
        try second.waitFor("The match coughed")
        backlog = try second.press("b", thenWaitFor: "Backlog")
        #expect(backlog.contains("How will Mina light the lamp?") && backlog.contains("→ Strike the very last dry match"), "\(backlog)")
        second.send("Up")
        second.send("Enter")
        try second.waitUntil("the page gone back to") { $0.contains("How will Mina light the lamp?") && !$0.contains("Backlog") }
        #expect(!second.screen().contains("Backlog"))
        try second.press("q", thenWaitFor: "[exited 0]")
    }
}
