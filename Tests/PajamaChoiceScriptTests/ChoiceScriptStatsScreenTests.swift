import PajamaChoiceScript
import PajamaStoryFormat
import PajamaTestSupport
import Testing
@testable import PajamaChoiceScriptBridge

/// The stats screen: `choicescript_stats.txt` run against the reading's state where a beat stops, its
/// `*stat_chart` rows (`text`, `percent`, `opposed_pair`) evaluated as scene.js's parseStatChart reads them,
/// the state left as it was; offered to the reader as its status page (`StatusPageSource`, key `i`).
@Suite struct ChoiceScriptStatsScreenTests {
    static let startup = """
        *title The Shore
        *create name "Ada"
        *create strength 40
        *create brutality 70
        *create gold 3
        The tide turns.
        *choice
          #Lift the boat.
            *set strength +17
            *set gold +1
            Done.
            *ending
          #Wait.
            *ending
        """
    static let stats = """
        [b]${name}[/b] of the shore.
        *set gold 1000
        *stat_chart
          text name Name
          text (gold * 2) Double gold
          percent strength Strength
            How strong you are.
          opposed_pair brutality
            Brutality
              Strength and cruelty
            Finesse
              Precision

        *stat_chart
          opposed_pair brutality
            Cunning
        """

    @Test func theStatsSceneRunsAgainstTheStateAndLeavesItAsItWas() throws {
        let runtime = CSRuntime(game: CSGame(sceneTexts: ["startup": Self.startup, "choicescript_stats": Self.stats]), seed: 1)
        _ = runtime.start()
        let before = runtime.state
        let screen = try #require(runtime.statsScreen())
        #expect(runtime.state == before)
        #expect(screen.stop == .ending)
        #expect(screen.output == [
            .paragraph("[b]Ada[/b] of the shore. "),
            .statChart([
                .text(label: "Name", value: .string("Ada")), .text(label: "Double gold", value: .number(2000)),
                .percent(label: "Strength", value: .string("40")), .opposedPair(label: "Brutality", opposite: "Finesse", value: .string("70")),
            ]),
            .statChart([.opposedPair(label: "brutality", opposite: "Cunning", value: .string("70"))]),
        ])
        _ = try runtime.choose(0)
        let after = try #require(runtime.statsScreen())
        #expect(after.output.contains(.statChart([
            .text(label: "Name", value: .string("Ada")), .text(label: "Double gold", value: .number(2000)),
            .percent(label: "Strength", value: .number(57)), .opposedPair(label: "Brutality", opposite: "Finesse", value: .string("70")),
        ])))
        #expect(runtime.state.stats["gold"] == .number(4))
        #expect(CSRuntime(game: CSGame(sceneTexts: ["startup": Self.startup]), seed: 1).statsScreen() == nil)
    }

    @Test func aBadChartStopsSayingWhere() throws {
        let runtime = CSRuntime(game: CSGame(sceneTexts: ["startup": Self.startup, "choicescript_stats": "*stat_chart\n  bar strength\n"]), seed: 1)
        _ = runtime.start()
        #expect(runtime.statsScreen()?.stop
            == .error("choicescript_stats line 2: invalid line; this line should start with 'percent', 'text', or 'opposed_pair'"))
    }

    @Test func theSourceOffersTheStatsAsItsStatusPageAtEachBeat() async throws {
        let directory = try TemporaryDirectory(prefix: "pajama-choicescript-stats")
        defer { directory.remove() }
        _ = try directory.write("scenes/startup.txt", Self.startup)
        _ = try directory.write("scenes/choicescript_stats.txt", Self.stats)
        let source = try #require(ChoiceScriptStorySource.local(directory.path, seed: 1))
        #expect(await source.statusPageTitle() == "Stats")
        let start = try #require(try await source.madeBeat("start"))
        guard case .choice(_, let choices)? = start.pages.last?.kind else { Issue.record("no choice page"); return }
        let first = try #require(await source.statusPage(at: "start"))
        #expect(first.title == "Stats")
        #expect(first.rows == [
            .text("Ada of the shore."), .text(""),
            .text("Name: Ada"), .text("Double gold: 2000"), .meter("Strength: 40%", fraction: 0.4),
            .opposed("Brutality: 70%", "Finesse: 30%", fraction: 0.7), .opposed("brutality: 70%", "Cunning: 30%", fraction: 0.7),
        ])
        _ = try await source.madeBeat(choices[0].targetBeatId)
        let later = try #require(await source.statusPage(at: choices[0].targetBeatId))
        #expect(later.rows.contains(.meter("Strength: 57%", fraction: 0.57)))
        #expect(await source.statusPage(at: "c-nosuchbeat") == nil)
        #expect(first.lines(barWidth: 4).contains("██░░"))
        // A game without choicescript_stats.txt offers none.
        let bare = try TemporaryDirectory(prefix: "pajama-choicescript-nostats")
        defer { bare.remove() }
        _ = try bare.write("scenes/startup.txt", Self.startup)
        #expect(await ChoiceScriptStorySource.local(bare.path)?.statusPageTitle() == nil)
    }
}
