import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The reader's other keys and panels (docs/reader.md, "Keys"), in process: help, restart, the theme
/// remembered for the next reading, the stats panel, the library's page reached, a long page's scrolling.
@MainActor @Suite struct ReaderKeysTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func helpOverlayOpensAndAnyKeyClosesIt() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-help")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home)
        try await t.waitFor("A short story")
        let help = try await t.type("?", thenWaitFor: "any key to close")
        #expect(help.contains("take that choice") && help.contains("restart (asks first)"))
        t.terminal.type("x")
        try await t.waitUntil("the page without the help") { $0.contains("A short story") && !$0.contains("any key to close") }
        #expect(await t.quit() == 0)
    }

    @Test func restartAsksFirstThenStartsOver() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-restart-key")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home)
        try await t.waitFor("A short story")
        try await t.press(.character(" "), thenWaitFor: "On a rock")
        try await t.type("r", thenWaitFor: "Restart from the beginning?")
        t.terminal.type("n")
        try await t.waitUntil("the page without the question") { $0.contains("On a rock") && !$0.contains("Restart from") }
        try await t.type("r", thenWaitFor: "Restart from the beginning?")
        try await t.type("y", thenWaitFor: "A short story")
        #expect(await t.quit() == 0)
    }

    @Test func nextThemeIsRememberedForTheNextSession() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-theme")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home)
        try await first.waitFor("A short story")
        let switched = try await first.type("t", thenWaitFor: "theme: ")
        let name = try #require(switched.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "theme: ") else { return nil }
            return line[r.upperBound...].split(separator: " ").first.map(String.init)
        }.first)
        #expect(name != "default")
        #expect(await first.quit() == 0)
        #expect(ReaderSettings.load(from: first.paths.readerSettings).theme == name)
        // The next reading opens in it.
        let second = HeadlessReading.read(story, home: home)
        try await second.waitFor("A short story")
        #expect(second.terminal.theme.name == name)
        #expect(await second.quit() == 0)
    }

    @Test func statsPanelShowsCachesAndThePreloadWindow() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-stats-panel")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 120, height: 30, options: ReaderOptions(noSound: true, stats: true))
        try await t.waitFor("A short story")
        let panel = try await t.waitFor("preload window")
        #expect(panel.contains("memory") && panel.contains("hit"))
        // The window lists the beats ahead of the start, e.g. the storm beat that follows it.
        try await t.waitUntil("the storm beat in the preload window") { $0.contains("preload window") && $0.contains("storm") }
        #expect(await t.quit() == 0)
    }

    @Test func libraryShowsThePageReachedAndOpensAtIt() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-library-page")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home)
        try await first.waitFor("A short story")
        for text in ReadingAStoryTests.openingTaps.prefix(4) { try await first.press(.character(" "), thenWaitFor: text) }
        #expect(await first.quit() == 0)

        let library = HeadlessReading.library(PackagePaths.stories.path, home: home)
        let list = try await library.waitFor("The Lantern Keeper")
        // Each story has two rows: its title and when it was read, then its format and where the reader is.
        let rows = list.split(separator: "\n")
        let title = try #require(rows.firstIndex { $0.contains("The Lantern Keeper") })
        #expect(rows[title].contains("read just now"), "\(rows[title])")
        let place = title + 1 < rows.count ? String(rows[title + 1]) : ""
        #expect(place.contains("% seen") || place.contains("at “"), "\(place)")
        #expect(list.contains("new"))
        // Lantern Keeper is listed first (the story read last comes first, the others after it by title).
        #expect(rows.firstIndex { $0.contains("›") } == title, "\(list)")
        try await library.press(.enter, thenWaitFor: "Thunder walked")
        try await library.type("q", thenWaitFor: "The Lantern Keeper")
        #expect(await library.quit() == 0)
    }

    @Test func aLongPageFollowsTheRevealedLinesAndScrollsWithPageKeys() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-long-page")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 30, height: 9, start: ("storm", nil))
        try await t.waitFor("Thunder walked")
        // The second line ends "...the tower went out." (its start may already be scrolled above the fold).
        try await t.press(.character(" "), thenWaitFor: "out.")
        // The third paragraph is below the fold of a 9-row terminal: the page scrolls to show it.
        let bottom = try await t.press(.character(" "), thenWaitFor: "coming home.")
        #expect(bottom.contains("▲") && !bottom.contains("Thunder walked"))
        let top = try await t.press(.pageUp, thenWaitFor: "▼")
        #expect(!top.contains("coming home."))
        try await t.press(.pageDown, thenWaitFor: "coming home.")
        #expect(await t.quit() == 0)
    }
}
