import Foundation
import PajamaTestSupport
import Testing

/// The quit signals in the library (its own loop, and a story opened from it): the library ends at once
/// with 128 + the signal's number and gives the terminal back, as `pajama read` does (see
/// TerminalRestoreEndToEndTests).
@Suite(.serialized) struct QuitSignalsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    func library() throws -> TmuxSession {
        let t = try TmuxSession([pajama, "library", "--no-sound"], environment: ["PAJAMA_STORIES": PackagePaths.stories.path])
        try t.waitFor("The Lantern Keeper")
        #expect(t.paneValue("#{alternate_on}") == "1")
        return t
    }

    func expectRestored(_ t: TmuxSession, exitStatus: Int32) throws {
        let screen = try t.waitFor("[exited ")
        #expect(screen.contains("[exited \(exitStatus)]"), "\(screen)")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
    }

    @Test func sigtermInTheLibraryExits143() throws {
        let t = try library()
        defer { t.stop() }
        let pid = try #require(t.programPID(named: "pajama"))
        kill(pid, SIGTERM)
        try expectRestored(t, exitStatus: 143)
    }

    @Test func ctrlCInAStoryOpenedFromTheLibraryEndsTheLibraryToo() throws {
        let t = try library()
        defer { t.stop() }
        t.send("Down", "Down")  // the third story (by title): The Lantern Keeper
        try t.press("Enter", thenWaitFor: "A short story")
        t.send("C-c")
        try expectRestored(t, exitStatus: 130)
    }
}
