import Foundation
import PajamaTestSupport
import Testing

/// Back (←, h, Backspace) works from every error screen and is offered there: on the real binary in
/// tmux, with a copy of the bundled story whose `stairs` beat file is gone.
@Suite(.serialized) struct ErrorScreenBackEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    func storyWithoutStairs(in copy: TemporaryDirectory) throws -> String {
        let folder = copy.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("beats/stairs.json"))
        return folder.path
    }

    @Test(arguments: ["Left", "h", "BSpace"])
    func backFromAMissingBeatReturnsToTheChoice(key: String) throws {
        let copy = try TemporaryDirectory(prefix: "pajama-missing-beat")
        defer { copy.remove() }
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", try storyWithoutStairs(in: copy)])
        defer { t.stop() }
        try t.waitFor("What will Mina do?")
        let error = try t.press("1", thenWaitFor: "Could not load", timeout: 30)
        #expect(error.contains("stairs"), "\(error)")
        #expect(error.contains("← back"), "\(error)")
        let back = try t.press(key, thenWaitFor: "What will Mina do?", timeout: 30)
        #expect(!back.contains("Could not load"), "\(back)")
        // The other way still fails the same way, and back still works.
        try t.press("1", thenWaitFor: "Could not load", timeout: 30)
        try t.press("Left", thenWaitFor: "What will Mina do?", timeout: 30)
    }

    @Test func backFromAMissingPictureReturnsToThePageBefore() throws {
        let copy = try TemporaryDirectory(prefix: "pajama-missing-picture")
        defer { copy.remove() }
        let folder = copy.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("assets/images/choice.png"))
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm", folder.path])
        defer { t.stop() }
        try t.waitFor("Thunder walked")
        try t.press("Space", thenWaitFor: "Then, with a")
        try t.press("Space", thenWaitFor: "coming home.")
        let error = try t.press("Space", thenWaitFor: "Could not load", timeout: 30)
        #expect(error.contains("← back"), "\(error)")
        let back = try t.press("Left", thenWaitFor: "Thunder walked", timeout: 30)
        #expect(!back.contains("Could not load"), "\(back)")
    }
}
