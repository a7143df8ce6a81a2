import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The author's live preview (`pajama read FOLDER --watch`, docs/authoring.md), in process on a copy of a
/// bundled story: an edit shows on the same page, a broken beat shows the problems overlay naming the file
/// and the reason, fixing it takes the overlay away, a replaced picture is drawn anew, a new title shows.
@MainActor @Suite struct LivePreviewTests {
    let bundled = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Saves `text` to `path` the way editors do: a temporary file beside it, renamed over it.
    func save(_ text: String, to path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
    }

    @Test func editsShowOnTheSamePageProblemsComeAndGoAndPicturesAreDrawnAnew() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-watch")
        defer { home.remove() }
        let story = home.path + "/story"
        try FileManager.default.copyItem(atPath: bundled, toPath: story)
        let t = HeadlessReading.read(story, home: home, width: 110, height: 30, start: ("stairs", nil), watch: true)
        try await t.waitUntil("the page and its text-art picture") { $0.contains("Up went Mina") && $0.contains("|[##]|") }
        // The folder is watched with inotify (no polling).
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let targets = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
        #expect(targets.contains("anon_inode:inotify"), "\(targets)")

        try await t.press(.character(" "), thenWaitFor: "Ninety-eight")  // the page's second line revealed

        // The page's text edited and saved: the new text, on the same page, as far into it as it was read.
        let beat = story + "/beats/stairs.json"
        let original = try String(contentsOfFile: beat, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "Up went Mina, round and round", with: "Down came Mina, round and round")
        try save(edited, to: beat)
        let after = try await t.waitUntil("the edited text") { $0.contains("Down came Mina") && !$0.contains("Up went Mina") }
        #expect(after.contains("Ninety-eight") && after.contains("1 page read"), "still the climb page, both lines: \(after)")

        // Broken: the overlay names the file and the reason; the status line keeps a mark.
        try save("{\n  \"id\": \"stairs\",\n  \"pages\": [\n", to: beat)
        let broken = try await t.waitFor("problems in the story")
        #expect(broken.contains("beats/stairs.json"), "\(broken)")
        #expect(broken.contains("not valid JSON") || broken.contains("JSON"), "\(broken)")
        #expect(broken.contains("⚠"), "\(broken)")

        // Esc hides it; the mark stays.
        t.terminal.push(.escape)
        let hidden = try await t.waitUntil("the overlay hidden") { !$0.contains("problems in the story") }
        #expect(hidden.contains("⚠"), "\(hidden)")

        // Fixed: the overlay and the mark go away by themselves, and the page is back.
        try save(edited, to: beat)
        try await t.waitUntil("the page again, with no problems") { $0.contains("Down came Mina") && !$0.contains("⚠") && !$0.contains("problems in the story") }

        // The picture replaced: the new one is drawn.
        try save("   ~~~ NEW LIGHTHOUSE ~~~\n      |  ()  |\n", to: story + "/assets/art/stairs.txt")
        let redrawn = try await t.waitUntil("the new picture") { $0.contains("NEW LIGHTHOUSE") && !$0.contains("|[##]|") }
        #expect(redrawn.contains("Down came Mina"), "\(redrawn)")

        // story.json's title changed: the title bar follows.
        let manifest = story + "/story.json"
        try save(try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(
            of: "\"title\": \"The Lantern Keeper\"", with: "\"title\": \"The Lantern Keeper, draft 2\""), to: manifest)
        try await t.waitFor("The Lantern Keeper, draft 2")
        #expect(await t.quit() == 0)
    }

    /// After the reading the watcher's descriptor is closed, whatever ended it.
    @Test func theWatchEndsWithTheReading() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-watch-end")
        defer { home.remove() }
        let story = home.path + "/story"
        try FileManager.default.copyItem(atPath: bundled, toPath: story)
        let t = HeadlessReading.read(story, home: home, start: ("stairs", nil), watch: true)
        try await t.waitFor("Up went Mina")
        t.terminal.sendSignal(SIGTERM)
        #expect(await t.exitCode() == 128 + SIGTERM)
    }
}
