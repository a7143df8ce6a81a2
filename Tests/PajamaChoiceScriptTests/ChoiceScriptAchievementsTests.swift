import PajamaChoiceScript
import PajamaJSON
import PajamaTestSupport
import Testing
@testable import PajamaChoiceScriptBridge

/// `*achieve` is recorded with the reading's state, and an ending's last page (the end screen shows it) says
/// what ChoiceScript's achievements screen says (ui.js's printAchievements): titles with their post-earned text
/// for those earned, the pre-earned text for the visible ones not yet, the hidden ones only counted.
@Suite struct ChoiceScriptAchievementsTests {
    static let declarations = """
        *achievement bold visible 10 Bold Start
          You began boldly.
          You began [b]very[/b] boldly.
        *achievement patient visible 15 Patience
          Wait for the tide.
        *achievement secret hidden 10 The Cave
          hidden
          You found the cave.

        """

    @Test func theReportSaysWhatChoiceScriptsScreenSays() {
        let game = CSGame(sceneTexts: ["startup": Self.declarations + "*ending\n"])
        #expect(game.achievementReport(achieved: []) == [
            "You haven't unlocked any achievements yet. There are three possible achievements (including one hidden achievement), worth a total of 35 points.",
            "[b]Bold Start:[/b] You began boldly. (10 points)",
            "[b]Patience:[/b] Wait for the tide. (15 points)",
        ])
        #expect(game.achievementReport(achieved: ["bold"]) == [
            "You have unlocked one out of three possible achievements, earning you a score of 10 out of a possible 35 points.",
            "[b]Bold Start:[/b] You began [b]very[/b] boldly. (10 points)",
            "There are still two achievements remaining, including one hidden achievement.",
            "[b]Patience:[/b] Wait for the tide. (15 points)",
        ])
        #expect(game.achievementReport(achieved: ["bold", "patient"]) == [
            "You have unlocked two out of three possible achievements, earning you a score of 25 out of a possible 35 points.",
            "[b]Bold Start:[/b] You began [b]very[/b] boldly. (10 points)",
            "[b]Patience:[/b] Wait for the tide. (15 points)",
            "There is still one hidden achievement remaining.",
        ])
        #expect(game.achievementReport(achieved: ["bold", "patient", "secret"])?.first
            == "Congratulations! You have unlocked all three achievements, earning a total of 35 points, a perfect score.")
        #expect(CSGame(sceneTexts: ["startup": "*ending\n"]).achievementReport(achieved: []) == nil)
    }

    @Test func anAchievementIsKeptWithTheStateAndShownOnTheEndingsLastPage() async throws {
        let directory = try TemporaryDirectory(prefix: "pajama-choicescript-achieve")
        defer { directory.remove() }
        _ = try directory.write("scenes/startup.txt", Self.declarations + """
            *title The Shore
            The tide turns.
            *choice
              #Dive in.
                *achieve bold
                You swim out.
                *ending
              #Wait.
                *ending
            """)
        let source = try #require(ChoiceScriptStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices)? = start.pages.last?.kind else { Issue.record("no choice page"); return }
        let ending = try #require(try await source.madeBeat(choices[0].targetBeatId))
        let lines = ending.pages.flatMap { page -> [String] in if case .text(let lines) = page.kind { lines } else { [] } }
        #expect(lines.contains("Achievement: Bold Start You began very boldly."))
        let report = try #require(lines.firstIndex(of: "Achievements"))
        #expect(Array(lines[report...]) == [
            "Achievements",
            "You have unlocked one out of three possible achievements, earning you a score of 10 out of a possible 35 points.",
            "Bold Start: You began very boldly. (10 points)",
            "There are still two achievements remaining, including one hidden achievement.",
            "Patience: Wait for the tide. (15 points)",
        ])
        // The other ending earned none; the state saved with the progress keeps what was earned.
        let other = try #require(try await source.madeBeat(choices[1].targetBeatId))
        let otherLines = other.pages.flatMap { page -> [String] in if case .text(let lines) = page.kind { lines } else { [] } }
        #expect(otherLines.contains { $0.hasPrefix("You haven't unlocked any achievements yet.") })
        let runtime = CSRuntime(game: CSGame(sceneTexts: ["startup": Self.declarations + "*achieve secret\nFound.\n*ending\n"]), seed: 1)
        _ = runtime.start()
        let saved = try JSONValueDecoder().decode(CSState.self, from: try JSONValueEncoder.sorted.encode(runtime.state))
        #expect(saved.achieved == ["secret"])
    }
}
