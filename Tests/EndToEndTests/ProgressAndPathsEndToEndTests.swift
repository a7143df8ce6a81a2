import Foundation
import PajamaTestSupport
import Testing

/// Progress written behind the reader, on the real binary: quitting (a key or a quit signal) leaves the
/// last page on disk, a killed reader leaves a whole file; and the folders follow the XDG rules.
@Suite(.serialized) struct ProgressAndPathsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Reads stairs (two lines) into lamp_room, page 2, waiting for each page; returns the progress file.
    private func readAFewPages(_ t: TmuxSession) throws -> String {
        try t.waitFor("Up went Mina")
        t.send("Space")
        try t.press("Space", thenWaitFor: "The wick was fine")
        try t.press("Space", thenWaitFor: "How will Mina light the lamp?")
        return t.home.path + "/data/pajama/progress/lantern-keeper.json"
    }

    private func savedNow(_ file: String) throws -> SavedProgress {
        let data = try #require(FileManager.default.contents(atPath: file), "no progress file at \(file)")
        return try JSONDecoder().decode(SavedProgress.self, from: data)
    }

    @Test func aQuitSignalRightAfterTheLastPageLeavesItOnDisk() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "stairs", story])
        defer { t.stop() }
        let file = try readAFewPages(t)
        let pid = try #require(t.programPID(named: "pajama"))
        kill(pid, SIGTERM)
        try t.waitFor("[exited 143]")
        let saved = try savedNow(file)
        #expect(saved.location?.beatId == "lamp_room" && saved.location?.pageId == "how_to_light", "\(saved)")
    }

    @Test func aKilledReaderLeavesAWholeFileNamingAPageItRead() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "stairs", story])
        defer { t.stop() }
        try t.waitFor("Up went Mina")
        let file = t.home.path + "/data/pajama/progress/lantern-keeper.json"
        _ = try waitForProgress(file) { $0.location?.beatId == "stairs" }
        let pid = try #require(t.programPID(named: "pajama"))
        // Keys as fast as they come, then no chance to flush: whatever the file holds must be whole.
        for _ in 0..<3 { t.send("Space") }
        kill(pid, SIGKILL)
        try t.waitForExit(status: 137)
        let saved = try savedNow(file)
        let read = ["stairs/climb", "lamp_room/lens", "lamp_room/how_to_light"]
        #expect(saved.location.map { read.contains($0.beatId + "/" + $0.pageId) } == true, "\(saved)")
    }

    @Test func anEmptyConfigHomeMeansTheDefaultFolderUnderHome() throws {
        // Run from the home folder, so a path taken relative to the working folder would land there too.
        let command = ["/bin/sh", "-c", "cd \"$HOME\" && exec \"$0\" \"$@\"", pajama, "read", "--no-sound", story]
        let themes = PackagePaths.root.appendingPathComponent("Themes").path
        let t = try TmuxSession(command, environment: ["XDG_CONFIG_HOME": "", "PAJAMA_THEMES": themes])
        defer { t.stop() }
        try t.waitFor("The Lantern Keeper")
        try t.press("t", thenWaitFor: "theme: ")
        try t.press("q", thenWaitFor: "[exited 0]")
        let settings = t.home.path + "/.config/pajama/reader.json"
        #expect(FileManager.default.fileExists(atPath: settings), "the theme is remembered in \(settings)")
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/pajama"), "nothing is written relative to the working folder")
    }
}
