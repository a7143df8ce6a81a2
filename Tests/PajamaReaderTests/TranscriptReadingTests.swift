import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// `pajama read --transcript FILE`, in process: each page read and each choice taken appended to FILE as
/// plain text (docs/reader.md, "Transcript"), written when the reading ends.
@MainActor @Suite struct TranscriptReadingTests {
    let atlas = PackagePaths.stories.appendingPathComponent("clockwork-atlas").path

    @Test func readWithATranscriptWritesThePagesReadAndTheChoicesTaken() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-read-transcript")
        defer { home.remove() }
        let file = home.path + "/reading.txt"
        let t = HeadlessReading.read(atlas, home: home, transcript: file)
        // The title page drawn (not the loading frame's title bar): a tap while a page loads is not queued.
        try await t.waitUntil("the title page") { $0.contains("A journey across a restless map") && $0.contains("1 page read") }
        try await t.press(.character(" "), thenWaitFor: "Brindlewick")
        try await t.press(.character(" "), thenWaitFor: "ticking came from the attic")
        try await t.press(.character(" "), thenWaitFor: "What does Ottilie do first?")
        try await t.type("2", thenWaitFor: "spidery brown ink")
        #expect(await t.quit() == 0)
        #expect(t.stderr.isEmpty, "\(t.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("The Clockwork Atlas\nA journey across a restless map\n\nIn the town of Brindlewick"), "\(text)")
        #expect(text.contains("What does Ottilie do first?\n  1. Wind the key. Obviously.\n  2. Read the label. Carefully.\n"
            + "> 2. Read the label. Carefully.\n\nThe label said"), "\(text)")
    }
}
