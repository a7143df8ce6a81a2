import Foundation
import PajamaTestSupport
import Testing

/// The author's live preview on the real binary in tmux: `pajama read FOLDER --watch` on a copy of a bundled
/// story; editing the page's text shows the new text on the same page, a broken beat shows the problems
/// overlay naming the file and the reason, fixing it takes the overlay away, a replaced picture is drawn
/// anew; `--watch` with a URL is a usage error.
@Suite(.serialized) struct LivePreviewEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let bundled = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Saves `text` to `path` the way editors do: a temporary file beside it, renamed over it.
    func save(_ text: String, to path: String) throws {
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
    }

    @Test func editsShowOnTheSamePageProblemsComeAndGoAndPicturesAreDrawnAnew() throws {
        let home = try TemporaryDirectory(prefix: "pajama-watch-e2e")
        let story = home.path + "/story"
        try FileManager.default.copyItem(atPath: bundled, toPath: story)
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "stairs", story, "--watch"], width: 110, height: 30, home: home)
        defer { t.stop() }
        try t.waitUntil("the page and its text-art picture") { $0.contains("Up went Mina") && $0.contains("|[##]|") }

        // The folder is watched with inotify (no polling).
        if let pid = t.programPID(named: "pajama") {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let targets = fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)") }
            #expect(targets.contains("anon_inode:inotify"), "\(targets)")
        }

        try t.press("Space", thenWaitFor: "Ninety-eight")  // the page's second line revealed

        // The page's text edited and saved: the new text, on the same page, as far into it as it was read.
        let beat = story + "/beats/stairs.json"
        let original = try String(contentsOfFile: beat, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "Up went Mina, round and round", with: "Down came Mina, round and round")
        try save(edited, to: beat)
        let after = try t.waitUntil("the edited text") { $0.contains("Down came Mina") && !$0.contains("Up went Mina") }
        #expect(after.contains("Ninety-eight") && after.contains("1 page read"), "still the climb page, both lines: \(after)")

        // Broken: the overlay names the file and the reason; the status line keeps a mark.
        try save("{\n  \"id\": \"stairs\",\n  \"pages\": [\n", to: beat)
        let broken = try t.waitFor("problems in the story")
        #expect(broken.contains("beats/stairs.json"), "\(broken)")
        #expect(broken.contains("not valid JSON") || broken.contains("JSON"), "\(broken)")
        #expect(broken.contains("⚠"), "\(broken)")

        // Esc hides it; the mark stays.
        t.send("Escape")
        let hidden = try t.waitUntil("the overlay hidden") { !$0.contains("problems in the story") }
        #expect(hidden.contains("⚠"), "\(hidden)")

        // Fixed: the overlay and the mark go away by themselves, and the page is back.
        try save(edited, to: beat)
        try t.waitUntil("the page again, with no problems") { $0.contains("Down came Mina") && !$0.contains("⚠") && !$0.contains("problems in the story") }

        // The picture replaced: the new one is drawn.
        try save("   ~~~ NEW LIGHTHOUSE ~~~\n      |  ()  |\n", to: story + "/assets/art/stairs.txt")
        let redrawn = try t.waitUntil("the new picture") { $0.contains("NEW LIGHTHOUSE") && !$0.contains("|[##]|") }
        #expect(redrawn.contains("Down came Mina"), "\(redrawn)")

        // story.json's title changed: the title bar follows.
        let manifest = story + "/story.json"
        try save(try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(
            of: "\"title\": \"The Lantern Keeper\"", with: "\"title\": \"The Lantern Keeper, draft 2\""), to: manifest)
        try t.waitFor("The Lantern Keeper, draft 2")

        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func watchWithAURLIsAUsageError() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--watch", "http://127.0.0.1:9/lantern-keeper/"], width: 200, height: 30)
        defer { t.stop() }
        let screen = try t.waitFor("[exited 64]")
        #expect(screen.contains("--watch needs a story folder"), "\(screen)")
    }
}
