import Foundation
import PajamaModel
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// Pages on a small terminal, in process: scrolling a page longer than the screen never skips a line
/// (PgDn / PgUp move by the text area less one line of overlap, ↑ / ↓ a line on pages without choices),
/// the selected choice is always on screen, the status line drops whole items, the help wraps and scrolls.
@MainActor @Suite struct SmallScreenTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
    static let paragraphs = (1...12).map { String(format: "Line %02d of the long page.", $0) }

    /// A one-page story: a text-art picture above twelve short paragraphs, all shown at once.
    func makeLongPage(in home: TemporaryDirectory) throws -> String {
        try home.write("long-page/story.json", """
            {"format": 1, "id": "long-page", "title": "Long Page", "version": "1", "startBeatId": "only",
             "presentation": {"lineByLine": false}, "beats": ["only"]}
            """)
        let lines = Self.paragraphs.map { "\"\($0)\"" }.joined(separator: ", ")
        try home.write("long-page/beats/only.json", """
            {"id": "only", "pages": [{"id": "long", "type": "text", "lines": [\(lines)], "imageUrl": "assets/art/box.txt"}]}
            """)
        try home.write("long-page/assets/art/box.txt", "+-ART-+\n|     |\n+-----+\n")
        return home.url.appendingPathComponent("long-page").path
    }

    func shownParagraphs(_ screen: String) -> Set<String> { Set(Self.paragraphs.filter { screen.contains($0) }) }

    @Test func pageDownThenPageUpShowEveryLineAt40x12() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-scroll")
        defer { home.remove() }
        let t = HeadlessReading.read(try makeLongPage(in: home), home: home, width: 40, height: 12)
        // The picture is drawn above the text, so the text has only a few rows.
        var screen = try await t.waitUntil("the picture and the first line") { $0.contains("-ART-") && $0.contains("Line 01") }
        #expect(screen.contains("▼"))
        var seen = shownParagraphs(screen)
        var presses = 0
        while screen.contains("▼"), presses < 30 {
            let before = screen
            t.terminal.push(.pageDown)
            screen = try await t.waitUntil("the page scrolled down") { $0 != before }
            seen.formUnion(shownParagraphs(screen))
            presses += 1
        }
        #expect(screen.contains("Line 12"))
        #expect(seen == Set(Self.paragraphs), "never shown: \(Set(Self.paragraphs).subtracting(seen).sorted())")

        seen = shownParagraphs(screen)
        presses = 0
        while screen.contains("▲"), presses < 30 {
            let before = screen
            t.terminal.push(.pageUp)
            screen = try await t.waitUntil("the page scrolled up") { $0 != before }
            seen.formUnion(shownParagraphs(screen))
            presses += 1
        }
        #expect(screen.contains("Line 01"))
        #expect(seen == Set(Self.paragraphs), "never shown: \(Set(Self.paragraphs).subtracting(seen).sorted())")
        #expect(await t.quit() == 0)
    }

    @Test func arrowKeysScrollATextPageALineAtATime() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-scroll-lines")
        defer { home.remove() }
        let t = HeadlessReading.read(try makeLongPage(in: home), home: home, width: 40, height: 12)
        var screen = try await t.waitUntil("the picture and the first line") { $0.contains("-ART-") && $0.contains("Line 01") }
        #expect(!screen.contains("▲"))
        // One line down: "Line 01" leaves the top, and the line below it (a blank between paragraphs)
        // is now the first: "Line 02" moves up one row.
        let row = { (s: String, text: String) in s.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) } }
        let before = try #require(row(screen, "Line 02"))
        t.terminal.push(.down)
        screen = try await t.waitUntil("Line 01 scrolled out, Line 02 one row up") { s in !s.contains("Line 01") && row(s, "Line 02") == before - 1 }
        t.terminal.push(.up)
        screen = try await t.waitUntil("Line 01 back, Line 02 in its row") { s in s.contains("Line 01") && row(s, "Line 02") == before }
        #expect(await t.quit() == 0)
    }

    @Test func theSelectedChoiceScrollsIntoView() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-small-choice")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 40, height: 12, start: ("storm", "what_now"))
        try await t.waitFor("The Puffin")
        t.terminal.push(.down)
        // The second choice, selected, is on screen.
        try await t.waitUntil("the second choice on screen") { $0.contains("› 2.") && $0.contains("Take the little") }
        t.terminal.push(.down)
        try await t.waitUntil("the first choice on screen again") { $0.contains("› 1.") && $0.contains("Climb the") }
        #expect(await t.quit() == 0)
    }

    @Test func theStatusLineDropsWholeItems() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-small-status")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 40, height: 12)
        let screen = try await t.waitFor("page read")
        let status = screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains("page read") } ?? ""
        // "1 page read · 1 of 11 beats seen" does not fit beside the sound's status: the beats item goes whole.
        let left = status.components(separatedBy: "  ").first { $0.contains("page read") }?.trimmingCharacters(in: .whitespaces) ?? ""
        let items = left.components(separatedBy: " · ")
        #expect(items.allSatisfy { $0.hasSuffix("read") || $0.hasSuffix("beats seen") || $0 == "seen before" }, "\(status)")
        #expect(await t.quit() == 0)
    }

    @Test func theHelpOverlayWrapsAndScrolls() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-small-help")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 40, height: 12)
        try await t.waitFor("page read")
        // Scrolled to its end, every line of it has been on screen, none cut at the box's edge.
        var seen = try await t.type("?", thenWaitFor: "Keys")
        t.terminal.recordsFrames = true
        for _ in 0..<30 where !t.screen.contains("any key to close") {
            let before = t.screen
            t.terminal.push(.down)
            try await t.waitUntil("the help scrolled") { $0 != before }
        }
        seen += t.terminal.recordedFrames.joined(separator: "\n")
        try await t.waitFor("any key to close")
        let flat = seen.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ▲▼│")) }.joined(separator: " ")
        #expect(flat.contains("restart (asks first)") || flat.contains("restart (asks"), "\(seen)")
        #expect(!t.screen.contains("A short story for a stormy night"), "the overlay is still up while scrolling")
        t.terminal.type("x")
        try await t.waitUntil("the help closed") { !$0.contains("any key to close") }
        #expect(await t.quit() == 0)
    }
}
