import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// Bookmarks as `pajama read` makes and opens them (docs/reader.md, "Bookmarks"), in process: saved with `s`,
/// an autosave before each choice, opened by `--bookmark NAME` in a later reading, refused by a name that is none.
@MainActor @Suite struct BookmarkReadingTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aBookmarkIsSavedAndOpenedByName() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-bookmark")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home, start: ("lamp_room", nil))
        try await first.waitFor("The wick was fine")
        try await first.press(.character(" "), thenWaitFor: "How will Mina light the lamp?")
        try await first.type("s", thenWaitFor: "Save a bookmark named:")
        try await first.press(.enter, thenWaitFor: "bookmarked \"How will Mina light the lamp?\"")
        try await first.type("1", thenWaitFor: "Mina cupped her hands")
        #expect(await first.quit() == 0)
        let saved = try String(contentsOf: first.paths.bookmarks.appendingPathComponent("lantern-keeper.json"), encoding: .utf8)
        #expect(saved.contains("\"autosaves\"") && saved.contains("autosave "), "an autosave before the choice: \(saved)")

        let opened = HeadlessReading.read(story, home: home, bookmark: "How will Mina light the lamp?")
        try await opened.waitFor("How will Mina light the lamp?")
        try await opened.press(.left, thenWaitFor: "The wick was fine")  // the bookmark's history
        let list = try await opened.type("o", thenWaitFor: "Bookmarks ·")
        #expect(list.contains("How will Mina light the lamp?") && list.contains("autosave "), "\(list)")
        opened.terminal.push(.enter)
        try await opened.waitUntil("the bookmark's page") { $0.contains("How will Mina light the lamp?") && !$0.contains("Bookmarks ·") }
        #expect(await opened.quit() == 0)

        let unknown = HeadlessReading.read(story, home: home, bookmark: "nope")
        #expect(await unknown.exitCode() == 2)
        #expect(unknown.stderr.contains("no such bookmark") && unknown.stderr.contains("\"How will Mina light the lamp?\""), "\(unknown.stderr)")
        #expect(unknown.terminal.frameCount == 0, "nothing drawn: \(unknown.screen)")
    }

    @Test func theNamePromptStartsEmptyAndEditsLikeALine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-bookmark")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 100, start: ("storm", "what_now"))
        try await t.waitFor("The Puffin needs a light")
        let prompt = try await t.type("s", thenWaitFor: "Save a bookmark named:")
        #expect(prompt.contains("▏The Puffin needs a light."), "\(prompt)")
        try await t.type("my old choice", thenWaitFor: "my old choice▏")
        #expect(!t.screen.contains("What…my"), "\(t.screen)")
        try await t.type("\u{17}", thenWaitFor: "my old ▏")  // Ctrl-W
        t.terminal.push(.left, .left)
        try await t.type("\u{15}", thenWaitFor: "▏d ")  // Ctrl-U
        try await t.type("fork an", thenWaitFor: "fork an▏d")
        try await t.press(.enter, thenWaitFor: "bookmarked \"fork and\"")
        try await t.type("1", thenWaitFor: "Up went Mina")
        try await t.type("o", thenWaitFor: "Bookmarks ·")
        t.terminal.push(.enter)
        try await t.waitUntil("the bookmark's page") { $0.contains("The Puffin needs a light") && !$0.contains("Bookmarks ·") }
        #expect(await t.quit() == 0)
    }
}
