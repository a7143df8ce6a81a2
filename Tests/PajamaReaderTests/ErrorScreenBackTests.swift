import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// A page that cannot be loaded shows its error screen, and back (each of its keys) returns to where the
/// reader was: the choice before a missing beat, the page before a missing picture.
@MainActor @Suite struct ErrorScreenBackTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    func copy(removing file: String, in folder: TemporaryDirectory) throws -> String {
        let copy = folder.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: copy.path)
        try FileManager.default.removeItem(at: copy.appendingPathComponent(file))
        return copy.path
    }

    @Test(arguments: [Key.left, .character("h"), .backspace])
    func backFromAMissingBeatReturnsToTheChoice(key: Key) async throws {
        let home = try TemporaryDirectory(prefix: "pajama-missing-beat")
        defer { home.remove() }
        let t = HeadlessReading.read(try copy(removing: "beats/stairs.json", in: home), home: home, start: ("storm", "what_now"))
        try await t.waitFor("What will Mina do?")
        let error = try await t.type("1", thenWaitFor: "Could not load")
        #expect(error.contains("stairs"), "\(error)")
        #expect(error.contains("← back"), "\(error)")
        let back = try await t.press(key, thenWaitFor: "What will Mina do?")
        #expect(!back.contains("Could not load"), "\(back)")
        try await t.type("1", thenWaitFor: "Could not load")
        try await t.press(.left, thenWaitFor: "What will Mina do?")
        #expect(await t.quit() == 0)
    }

    @Test func backFromAMissingPictureReturnsToThePageBefore() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-missing-picture")
        defer { home.remove() }
        let t = HeadlessReading.read(try copy(removing: "assets/images/choice.png", in: home), home: home, start: ("storm", nil))
        try await t.waitFor("Thunder walked")
        try await t.press(.character(" "), thenWaitFor: "Then, with a")
        try await t.press(.character(" "), thenWaitFor: "coming home.")
        let error = try await t.press(.character(" "), thenWaitFor: "Could not load")
        #expect(error.contains("← back"), "\(error)")
        let back = try await t.press(.left, thenWaitFor: "Thunder walked")
        #expect(!back.contains("Could not load"), "\(back)")
        #expect(await t.quit() == 0)
    }
}
