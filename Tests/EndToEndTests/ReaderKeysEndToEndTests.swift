import Foundation
import PajamaTestSupport
import Testing

/// The reader's other keys and panels, on the real binary in tmux.
@Suite(.serialized) struct ReaderKeysEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func helpOverlayOpensAndAnyKeyClosesIt() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        let help = try t.press("?", thenWaitFor: "any key to close")
        #expect(help.contains("take that choice") && help.contains("restart (asks first)"))
        t.send("x")
        try t.waitFor("A short story")
        #expect(!t.screen().contains("any key to close"))
    }

    @Test func restartAsksFirstThenStartsOver() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.press("Space", thenWaitFor: "On a rock")
        try t.press("r", thenWaitFor: "Restart from the beginning?")
        t.send("n")
        try t.waitUntil("the page without the question") { $0.contains("On a rock") && !$0.contains("Restart from") }
        try t.press("r", thenWaitFor: "Restart from the beginning?")
        try t.press("y", thenWaitFor: "A short story")
    }

    @Test func nextThemeIsRememberedForTheNextSession() throws {
        let home = try TemporaryDirectory(prefix: "pajama-theme")
        let first = try TmuxSession([pajama, "read", "--no-sound", story], home: home)
        try first.waitFor("A short story")
        let switched = try first.press("t", thenWaitFor: "theme: ")
        let name = try #require(switched.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "theme: ") else { return nil }
            return line[r.upperBound...].split(separator: " ").first.map(String.init)
        }.first)
        #expect(name != "default")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()
        let settings = try String(contentsOfFile: home.path + "/config/pajama/reader.json", encoding: .utf8)
        #expect(settings.contains(name))
        home.remove()
    }

    @Test func statsPanelShowsCachesAndThePreloadWindow() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--stats", story], width: 120, height: 30)
        defer { t.stop() }
        try t.waitFor("A short story")
        let panel = try t.waitFor("preload window")
        #expect(panel.contains("memory") && panel.contains("hit"))
        // The window lists the beats ahead of the start, e.g. the storm beat that follows it.
        try t.waitFor("storm")
    }

    @Test func libraryShowsThePageReachedAndOpensAtIt() throws {
        let home = try TemporaryDirectory(prefix: "pajama-library")
        defer { home.remove() }
        let first = try TmuxSession([pajama, "read", "--no-sound", story], home: home)
        try first.waitFor("A short story")
        for text in ReaderEndToEndTests.openingTaps.prefix(4) { try first.press("Space", thenWaitFor: text) }
        try first.waitFor("Thunder walked")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()

        let library = try TmuxSession([pajama, "--no-sound"], environment: ["PAJAMA_STORIES": PackagePaths.stories.path], home: home)
        defer { library.stop() }
        let list = try library.waitFor("The Lantern Keeper")
        // Each story has two rows: its title and when it was read, then its format and where the reader is.
        let rows = list.split(separator: "\n")
        let title = try #require(rows.firstIndex { $0.contains("The Lantern Keeper") })
        #expect(rows[title].contains("read just now"), "\(rows[title])")
        let place = title + 1 < rows.count ? String(rows[title + 1]) : ""
        #expect(place.contains("% seen") || place.contains("at “"), "\(place)")
        #expect(list.contains("new"))
        // Lantern Keeper is listed first (the story read last comes first, the others after it by title).
        #expect(rows.firstIndex { $0.contains("›") } == title, "\(list)")
        try library.press("Enter", thenWaitFor: "Thunder walked")
    }

    @Test func mouseClickTakesAChoice() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        for text in ReaderEndToEndTests.openingTaps { try t.press("Space", thenWaitFor: text) }
        try t.press("Space", thenWaitFor: "What will Mina do?")
        // The text moves down when the page's picture arrives: take the choice's place from the screen
        // once the picture (chafa's block elements) is drawn.
        let screen = try t.waitUntil("the choice page with its picture") { screen in
            screen.contains("What will Mina do?") && screen.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("2. ") })
        let column = try #require(lines[row].range(of: "2. ")).lowerBound.utf16Offset(in: lines[row])
        // An SGR (1006) mouse press and release on the second choice, as xterm-256color's kmous says;
        // coordinates are 1-based.
        let x = column + 4, y = row + 1
        t.sendRaw("\u{1b}[<0;\(x);\(y)M")
        t.sendRaw("\u{1b}[<0;\(x);\(y)m")
        try t.waitFor("The door banged open")
    }

    @Test func aLongPageFollowsTheRevealedLinesAndScrollsWithPageKeys() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm", story], width: 30, height: 9)
        defer { t.stop() }
        try t.waitFor("Thunder walked")
        // The second line ends "...the tower went out." (its start may already be scrolled above the fold).
        try t.press("Space", thenWaitFor: "out.")
        t.send("Space")
        // The third paragraph is below the fold of a 9-row terminal: the page scrolls to show it.
        let bottom = try t.waitFor("coming home.")
        #expect(bottom.contains("▲") && !bottom.contains("Thunder walked"))
        let top = try t.press("PPage", thenWaitFor: "▼")
        #expect(!top.contains("coming home."))
        try t.press("NPage", thenWaitFor: "coming home.")
    }
}
