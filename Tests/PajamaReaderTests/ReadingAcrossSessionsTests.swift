import Foundation
import PajamaStorage
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// What a reading leaves for the next one (docs/reader.md): the backlog of the saved history, the end
/// screen's endings found, the seen pages that `>` skips, and a restart that clears "finished" in the
/// library. Each scenario is two readings (or a reading and the library) under one home, in process.
@MainActor @Suite struct ReadingAcrossSessionsTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// `--start` begins a fresh history: the progress saved after it starts there, the earlier read (storm,
    /// shore) not in it.
    @Test func startBeginsAFreshHistoryThatReplacesTheSavedOne() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-start")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home, start: ("storm", "what_now"))
        try await first.waitFor("What will Mina do?")
        try await first.type("2", thenWaitFor: "The door banged open")
        #expect(await first.quit() == 0)
        #expect(try await first.waitForProgress("lantern-keeper") { $0.location.beatId == "shore" }.history.map(\.beatId).contains("storm"))

        let second = HeadlessReading.read(story, home: home, start: ("stairs", nil))
        try await second.waitFor("Up went Mina")
        let saved = try await second.waitForProgress("lantern-keeper") { $0.location.beatId == "stairs" }
        #expect(saved.history.map(\.beatId) == ["stairs"], "\(saved.history)")
        #expect(await second.quit() == 0)
    }

    @Test func theBacklogShowsThePagesReadAndGoesBackToOne() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-backlog")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home, start: ("lamp_room", "how_to_light"))
        try await first.waitFor("How will Mina light the lamp?")
        try await first.type("1", thenWaitFor: "Mina cupped her hands")
        var backlog = try await first.type("b", thenWaitFor: "Backlog")
        #expect(backlog.contains("→ Strike the very last dry match"), "\(backlog)")
        // Esc closes it (and does not quit).
        first.terminal.push(.escape)
        try await first.waitUntil("the backlog closed") { !$0.contains("Backlog") }
        try await first.press(.character(" "), thenWaitFor: "The match coughed")
        #expect(await first.quit() == 0)

        // Another reading: the saved history's pages are in the backlog; Enter on one goes back to it.
        let second = HeadlessReading.read(story, home: home)
        try await second.waitFor("The match coughed")
        backlog = try await second.type("b", thenWaitFor: "Backlog")
        #expect(backlog.contains("How will Mina light the lamp?") && backlog.contains("→ Strike the very last dry match"), "\(backlog)")
        second.terminal.push(.up, .enter)
        try await second.waitUntil("the page gone back to") { $0.contains("How will Mina light the lamp?") && !$0.contains("Backlog") }
        #expect(await second.quit() == 0)
    }

    @Test func theEndScreenCountsTheReadingAndRemembersTheEndingsFound() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-end")
        defer { home.remove() }
        // Ending A, from the last choice: 4 pages, 1 choice; the story has 2 endings.
        let first = HeadlessReading.read(story, home: home, start: ("lamp_room", "how_to_light"))
        try await first.waitFor("How will Mina light the lamp?")
        try await first.type("1", thenWaitFor: "Mina cupped her hands")
        for text in ["The match coughed", "The Light Returns", "The great beam", "The Puffin turned", "In the morning", "The End"] {
            try await first.press(.character(" "), thenWaitFor: text)
        }
        var end = try await first.waitFor("1 of 2 endings found")
        #expect(end.contains("4 pages read · 1 choice made · 1 of 2 endings found"), "\(end)")
        #expect(end.contains("r restart · b backlog · ← back · q quit"))
        // Back shows the ending's page; a tap comes back to the end screen.
        let page = try await first.press(.left, thenWaitFor: "of 11 beats seen")  // the status line of a page, not the end's
        #expect(!page.contains("The End"), "\(page)")
        end = try await first.press(.character(" "), thenWaitFor: "The End")
        try await first.waitForProgress("lantern-keeper") { $0.endingsFound == ["light_returns"] }
        #expect(await first.quit() == 0)

        // Ending B in another reading: both endings are found now.
        let second = HeadlessReading.read(story, home: home, start: ("home_harbor", "jetty"))
        try await second.waitFor("The Puffin bumped")
        for text in ["I saw one small", "She gave Mina", "The End"] { try await second.press(.character(" "), thenWaitFor: text) }
        end = try await second.waitFor("2 of 2 endings found")
        #expect(end.contains("1 page read · 0 choices made"), "\(end)")
        try await second.waitForProgress("lantern-keeper") { $0.endingsFound == ["light_returns", "home_harbor"] }
        // r asks, then restarts; the endings found stay.
        try await second.type("r", thenWaitFor: "Restart from the beginning?")
        try await second.type("y", thenWaitFor: "A short story")
        let saved = try await second.waitForProgress("lantern-keeper") { $0.location.beatId == "start" }
        #expect(saved.endingsFound == ["light_returns", "home_harbor"])
        #expect(await second.quit() == 0)
    }

    @Test func theStatusLineSaysHowFarAlongAndSeenPagesAreSkippedInTheNextSession() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-seen")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home)
        let opening = try await first.waitFor("1 page read · 1 of 11 beats seen")
        #expect(!opening.contains("start · page"), "no beat ids without --stats: \(opening)")
        try await first.waitFor("▸ ready")  // the rock page is in the same beat, with nothing critical
        try await first.press(.character(" "), thenWaitFor: "On a rock")
        try await first.press(.left, thenWaitFor: "3 pages read · 1 of 11 beats seen · seen before")
        #expect(await first.quit() == 0)

        // Another reading, from the start: the title page was seen; > goes through it and the rock page
        // (seen, though not to its last line) and stops on the storm page, never seen.
        let second = HeadlessReading.read(story, home: home, restart: true)
        try await second.waitFor("1 page read · 1 of 11 beats seen · seen before")
        let storm = try await second.type(">", thenWaitFor: "Thunder walked")
        #expect(storm.contains("3 pages read · 2 of 11 beats seen") && !storm.contains("seen before"), "\(storm)")
        // Auto-forward reveals the next line with no key pressed, then a key stops it.
        try await second.type("a", thenWaitFor: "auto-forward on")
        try await second.waitFor("Then, with")
        try await second.type("x", thenWaitFor: "auto-forward off")
        #expect(await second.quit() == 0)
    }

    @Test func withStatsTheStatusLineNamesTheBeatAndPage() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-stats")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, width: 120, height: 30, options: ReaderOptions(noSound: true, stats: true))
        try await t.waitFor("start · page 1/2 · 1 page read · 1 of 11 beats seen")
        #expect(await t.quit() == 0)
    }

    @Test func restartingAFinishedStoryClearsFinished() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-restart")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, start: ("light_returns", "beam"))
        try await t.waitFor("The great beam")
        for text in ["The Puffin turned", "In the morning", "The End"] { try await t.press(.character(" "), thenWaitFor: text) }
        try await t.waitForProgress("lantern-keeper") { $0.finished }
        try await t.type("r", thenWaitFor: "Restart from the beginning?")
        try await t.type("y", thenWaitFor: "A short story")
        let saved = try await t.waitForProgress("lantern-keeper") { $0.location.beatId == "start" }
        #expect(!saved.finished, "restart must clear finished")
        #expect(await t.quit() == 0)

        // The library shows the story as being read again, not finished.
        let library = HeadlessReading.library(PackagePaths.stories.path, home: home)
        let list = try await library.waitFor("The Lantern Keeper")
        let rows = list.split(separator: "\n").map(String.init)
        let index = try #require(rows.firstIndex { $0.contains("The Lantern Keeper") })
        // The title row says when it was read; the row under it where the reader is: pages seen, not finished.
        #expect(rows[index].contains("read just now") || rows[index].contains("min ago"), "\(list)")
        let details = rows.indices.contains(index + 1) ? rows[index + 1] : ""
        #expect(details.contains("% seen") && !details.contains("finished") && details.contains("1 of 2 endings"), "\(list)")
        #expect(await library.quit() == 0)
    }

    /// Quitting right after the last page leaves it on disk: read once the reading has ended, no waiting.
    @Test func quittingRightAfterTheLastPageLeavesItOnDisk() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-quit-last")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home, start: ("stairs", nil))
        try await t.waitFor("Up went Mina")
        t.terminal.push(.character(" "))
        try await t.press(.character(" "), thenWaitFor: "The wick was fine")
        try await t.press(.character(" "), thenWaitFor: "How will Mina light the lamp?")
        #expect(await t.quit() == 0)
        let saved = try #require(ProgressStore(folder: t.paths.progress).load(storyId: "lantern-keeper").progress)
        #expect(saved.location.beatId == "lamp_room" && saved.location.pageId == "how_to_light", "\(saved)")
        #expect(saved.history.map(\.beatId) == ["stairs", "lamp_room", "lamp_room"], "\(saved.history)")
    }
}
