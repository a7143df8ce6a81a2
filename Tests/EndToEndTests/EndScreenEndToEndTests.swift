import Foundation
import PajamaTestSupport
import Testing

/// The end screen on the real binary: how the reading went, the endings found (x of N, remembered across
/// sessions in the progress file), back from it, restart.
@Suite(.serialized) struct EndScreenEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func theEndScreenCountsTheReadingAndRemembersTheEndingsFound() throws {
        let home = try TemporaryDirectory(prefix: "pajama-end-e2e")
        defer { home.remove() }
        let progress = home.path + "/data/pajama/progress/lantern-keeper.json"

        // Ending A, from the last choice: 4 pages, 1 choice; the story has 2 endings.
        let first = try TmuxSession([pajama, "read", "--no-sound", "--start", "lamp_room/how_to_light", story], home: home)
        try first.waitFor("How will Mina light the lamp?")
        try first.press("1", thenWaitFor: "Mina cupped her hands")
        for text in ["The match coughed", "The Light Returns", "The great beam", "The Puffin turned", "In the morning", "The End"] {
            try first.press("Space", thenWaitFor: text)
        }
        var end = try first.waitFor("1 of 2 endings found")
        #expect(end.contains("4 pages read · 1 choice made · 1 of 2 endings found"), "\(end)")
        #expect(end.contains("r restart · b backlog · ← back · q quit"))
        // Back shows the ending's page; a tap comes back to the end screen.
        let page = try first.press("Left", thenWaitFor: "of 11 beats seen")  // the status line of a page, not the end's
        #expect(!page.contains("The End"), "\(page)")
        end = try first.press("Space", thenWaitFor: "The End")
        _ = try waitForProgress(progress) { $0.endingsFound == ["light_returns"] }
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()  // stop() would remove the home

        // Ending B in another session: both endings are found now.
        let second = try TmuxSession([pajama, "read", "--no-sound", "--start", "home_harbor/jetty", story], home: home)
        defer { second.stop() }
        try second.waitFor("The Puffin bumped")
        for text in ["I saw one small", "She gave Mina", "The End"] { try second.press("Space", thenWaitFor: text) }
        end = try second.waitFor("2 of 2 endings found")
        #expect(end.contains("1 page read · 0 choices made"), "\(end)")
        _ = try waitForProgress(progress) { $0.endingsFound == ["light_returns", "home_harbor"] }
        // r asks, then restarts; the endings found stay.
        try second.press("r", thenWaitFor: "Restart from the beginning?")
        try second.press("y", thenWaitFor: "A short story")
        let saved = try waitForProgress(progress) { $0.location?.beatId == "start" }
        #expect(saved.endingsFound == ["light_returns", "home_harbor"])
        try second.press("q", thenWaitFor: "[exited 0]")
    }
}
