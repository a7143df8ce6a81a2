import Foundation
import PajamaTestSupport
import Testing

/// The real `pajama` binary in tmux, where the terminal itself is the point (the reading's scenarios run
/// in process: PajamaReaderTests.ReadingAStoryTests).
@Suite(.serialized) struct ReaderEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func terminalIsRestoredAfterSIGTERM() throws {
        let t = try TmuxSession([pajama, "read", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(t.paneValue("#{alternate_on}") == "1")
        let pid = try #require(t.programPID(named: "pajama"))
        kill(pid, SIGTERM)
        try t.waitFor("[exited 143]")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
    }
}
