import Foundation
import PajamaTestSupport
import Testing

/// Restarting a finished story, on the real binary: the progress file (and so the library) no longer
/// says "finished", and the library keeps the ending found.
@Suite(.serialized) struct RestartEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func restartingAFinishedStoryClearsFinished() throws {
        let home = try TemporaryDirectory(prefix: "pajama-restart-e2e")
        defer { home.remove() }
        let progress = home.path + "/data/pajama/progress/lantern-keeper.json"
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "light_returns/beam", story], home: home)
        try t.waitFor("The great beam")
        for text in ["The Puffin turned", "In the morning", "The End"] { try t.press("Space", thenWaitFor: text) }
        _ = try waitForProgress(progress) { $0.finished }
        try t.press("r", thenWaitFor: "Restart from the beginning?")
        try t.press("y", thenWaitFor: "A short story")
        let saved = try waitForProgress(progress) { $0.location?.beatId == "start" }
        #expect(!saved.finished, "restart must clear finished")
        try t.press("q", thenWaitFor: "[exited 0]")
        t.killServer()

        // The library shows the story as being read again, not finished.
        let library = try TmuxSession([pajama, "--no-sound", PackagePaths.stories.path], home: home)
        defer { library.stop() }
        let list = try library.waitFor("The Lantern Keeper")
        let rows = list.split(separator: "\n").map(String.init)
        let index = try #require(rows.firstIndex { $0.contains("The Lantern Keeper") })
        // The title row says when it was read; the row under it where the reader is: pages seen, not finished.
        #expect(rows[index].contains("read just now") || rows[index].contains("min ago"), "\(list)")
        let details = rows.indices.contains(index + 1) ? rows[index + 1] : ""
        #expect(details.contains("% seen") && !details.contains("finished") && details.contains("1 of 2 endings"), "\(list)")
    }
}
