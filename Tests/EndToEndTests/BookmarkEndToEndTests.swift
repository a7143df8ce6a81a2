import Foundation
import PajamaTestSupport
import Testing

/// Bookmarks on the real binary: `s` saves one, an autosave is written before a choice, `--bookmark NAME`
/// opens one, and an unknown name exits 2 naming the bookmarks there are.
@Suite(.serialized) struct BookmarkEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aBookmarkIsSavedAndOpenedByName() throws {
        let home = try TemporaryDirectory(prefix: "pajama-bookmark-e2e")
        defer { home.remove() }
        let file = home.path + "/data/pajama/bookmarks/lantern-keeper.json"
        let first = try TmuxSession([pajama, "read", "--no-sound", "--start", "lamp_room", story], home: home)
        try first.waitFor("The wick was fine")
        try first.press("Space", thenWaitFor: "How will Mina light the lamp?")
        try first.press("s", thenWaitFor: "Save a bookmark named:")
        try first.press("Enter", thenWaitFor: "bookmarked \"How will Mina light the lamp?\"")
        try first.press("1", thenWaitFor: "Mina cupped her hands")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()  // stop() would remove the home
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("\"autosaves\"") && saved.contains("autosave "), "an autosave before the choice: \(saved)")

        let opened = try TmuxSession([pajama, "read", "--no-sound", "--bookmark", "How will Mina light the lamp?", story], home: home)
        try opened.waitFor("How will Mina light the lamp?")
        try opened.press("Left", thenWaitFor: "The wick was fine")  // the bookmark's history
        // o lists the bookmark and the autosave, opening on the named bookmark; Enter opens it.
        let list = try opened.press("o", thenWaitFor: "Bookmarks ·")
        #expect(list.contains("How will Mina light the lamp?") && list.contains("autosave "), "\(list)")
        opened.send("Enter")
        try opened.waitUntil("the bookmark's page") { $0.contains("How will Mina light the lamp?") && !$0.contains("Bookmarks ·") }
        #expect(!opened.screen().contains("Bookmarks ·"))
        try opened.press("q", thenWaitFor: "[exited 0]")
        opened.killServer()

        let unknown = try TmuxSession([pajama, "read", "--no-sound", "--bookmark", "nope", story], home: home)
        defer { unknown.stop() }
        let screen = try unknown.waitFor("[exited 2]")
        #expect(screen.contains("no such bookmark") && screen.contains("\"How will Mina light the lamp?\""), "\(screen)")
    }

    @Test func theNamePromptStartsEmptyAndEditsLikeALine() throws {
        let home = try TemporaryDirectory(prefix: "pajama-bookmark-e2e")
        defer { home.remove() }
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", story], width: 100, home: home)
        defer { t.stop() }
        try t.waitFor("The Puffin needs a light")
        // Empty, with the page's first words as the hint (not text to append to).
        let prompt = try t.press("s", thenWaitFor: "Save a bookmark named:")
        #expect(prompt.contains("▏The Puffin needs a light."), "\(prompt)")
        t.sendRaw("my old choice")
        try t.waitFor("my old choice▏")
        #expect(!t.screen().contains("What…my"), "\(t.screen())")
        t.send("C-w")
        try t.waitFor("my old ▏")
        t.send("Left", "Left")
        t.send("C-u")
        try t.waitFor("▏d ")
        t.sendRaw("fork an")
        try t.waitFor("fork an▏d")
        try t.press("Enter", thenWaitFor: "bookmarked \"fork and\"")
        // A choice writes an autosave (newer than the bookmark); the list still opens on the named bookmark.
        try t.press("1", thenWaitFor: "Up went Mina")
        try t.press("o", thenWaitFor: "Bookmarks ·")
        t.send("Enter")
        try t.waitUntil("the bookmark's page") { $0.contains("The Puffin needs a light") && !$0.contains("Bookmarks ·") }
        try t.press("q", thenWaitFor: "[exited 0]")
    }
}
