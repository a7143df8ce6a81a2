import Foundation
import PajamaTestSupport
import Testing

/// Scrolling a page longer than the screen never skips a line: PgDn / PgUp move by the text area less
/// one line of overlap, and ↑ / ↓ move a line on pages without choices. On the real binary in tmux, at
/// 40x12 with a picture above the text (so the text area is a third of the screen).
@Suite(.serialized) struct ScrollingEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    static let paragraphs = (1...12).map { String(format: "Line %02d of the long page.", $0) }

    /// A one-page story: a text-art picture above twelve short paragraphs, all shown at once.
    func makeStory(in folder: TemporaryDirectory) throws -> String {
        let root = folder.url.appendingPathComponent("long-page")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("beats"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("assets/art"), withIntermediateDirectories: true)
        let manifest = """
            {"format": 1, "id": "long-page", "title": "Long Page", "version": "1", "startBeatId": "only",
             "presentation": {"lineByLine": false}, "beats": ["only"]}
            """
        let lines = Self.paragraphs.map { "\"\($0)\"" }.joined(separator: ", ")
        let beat = """
            {"id": "only", "pages": [{"id": "long", "type": "text", "lines": [\(lines)], "imageUrl": "assets/art/box.txt"}]}
            """
        try manifest.write(to: root.appendingPathComponent("story.json"), atomically: true, encoding: .utf8)
        try beat.write(to: root.appendingPathComponent("beats/only.json"), atomically: true, encoding: .utf8)
        try "+-ART-+\n|     |\n+-----+\n".write(to: root.appendingPathComponent("assets/art/box.txt"), atomically: true, encoding: .utf8)
        return root.path
    }

    /// Waits until the screen differs from `previous` and has settled (two captures in a row agree: tmux
    /// may show a frame that ncurses is still writing); returns it.
    func waitForChange(_ t: TmuxSession, from previous: String, timeout: TimeInterval = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = previous
        while Date() < deadline {
            let next = t.screen()
            if next != previous, next == screen { return next }
            screen = next
            usleep(50_000)
        }
        throw ScreenDidNotChange(screen: screen)
    }

    struct ScreenDidNotChange: Error, CustomStringConvertible {
        var screen: String
        var description: String { "the screen did not change; it was:\n\(screen)" }
    }

    func shownParagraphs(_ screen: String) -> Set<String> {
        Set(Self.paragraphs.filter { screen.contains($0) })
    }

    @Test func pageDownThenPageUpShowEveryLineAt40x12() throws {
        let home = try TemporaryDirectory(prefix: "pajama-scroll")
        defer { home.remove() }
        let t = try TmuxSession([pajama, "read", "--no-sound", try makeStory(in: home)], width: 40, height: 12)
        defer { t.stop() }
        // The picture is drawn above the text, so the text has only a few rows.
        var screen = try t.waitFor("-ART-")
        screen = try t.waitFor("Line 01")
        #expect(screen.contains("▼"))
        var seen = shownParagraphs(screen)
        var presses = 0
        while screen.contains("▼"), presses < 30 {
            t.send("NPage")
            screen = try waitForChange(t, from: screen)
            seen.formUnion(shownParagraphs(screen))
            presses += 1
        }
        #expect(screen.contains("Line 12"))
        #expect(seen == Set(Self.paragraphs), "never shown: \(Set(Self.paragraphs).subtracting(seen).sorted())")

        seen = shownParagraphs(screen)
        presses = 0
        while screen.contains("▲"), presses < 30 {
            t.send("PPage")
            screen = try waitForChange(t, from: screen)
            seen.formUnion(shownParagraphs(screen))
            presses += 1
        }
        #expect(screen.contains("Line 01"))
        #expect(seen == Set(Self.paragraphs), "never shown: \(Set(Self.paragraphs).subtracting(seen).sorted())")
    }

    @Test func arrowKeysScrollATextPageALineAtATime() throws {
        let home = try TemporaryDirectory(prefix: "pajama-scroll")
        defer { home.remove() }
        let t = try TmuxSession([pajama, "read", "--no-sound", try makeStory(in: home)], width: 40, height: 12)
        defer { t.stop() }
        try t.waitFor("-ART-")
        var screen = try t.waitFor("Line 01")
        #expect(!screen.contains("▲"))
        // One line down: "Line 01" leaves the top, and the line below it (a blank between paragraphs)
        // is now the first: "Line 02" moves up one row.
        let row = { (s: String, text: String) in s.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) } }
        let before = try #require(row(screen, "Line 02"))
        t.send("Down")
        screen = try t.waitUntil("Line 01 scrolled out, Line 02 one row up") { s in
            !s.contains("Line 01") && row(s, "Line 02") == before - 1
        }
        t.send("Up")
        screen = try t.waitUntil("Line 01 back, Line 02 in its row") { s in
            s.contains("Line 01") && row(s, "Line 02") == before
        }
        #expect(screen.contains("Line 01"))
    }
}
