@testable import PajamaChoiceScript
import PajamaJSON
import Testing

/// `*rand`'s generator is the one ChoiceScript's randomtest seeds (seedrandom's ARC4). The expected numbers
/// are the reference's own outputs: ChoiceScript's `seedrandom.js` (github:dfabulich/choicescript at 847dae4)
/// loaded under node 20, then `Math.seedrandom(S)` and `Math.random()` printed (`console.log`, shortest
/// round-trip text, so the doubles below are exact). The runtime test's rolls are what
/// `node randomtest.js num=1 game=G seed=0 showText=true` printed for the same game.
@Suite struct CSRandomTests {
    static func draws(seed: Int, count: Int) -> [Double] {
        var state = CSRandom.State(seed: seed)
        return (0..<count).map { _ in CSRandom.next(&state) }
    }

    @Test func drawsAsSeedrandomDoes() {
        #expect(Self.draws(seed: 0, count: 8) == [
            0.7803563384230067, 0.05144520047760746, 0.5317574394273067, 0.4885194745974366,
            0.8764000274360477, 0.7467466967539371, 0.7317929172654256, 0.054310377919145406,
        ])
        #expect(Self.draws(seed: 1, count: 5) == [0.2694488477791326, 0.43440878183925163, 0.8740779300873869, 0.24815964810523447, 0.5475022964720837])
        #expect(Self.draws(seed: 42, count: 5) == [0.00701751618236155, 0.17185490054868188, 0.967001069269818, 0.4077816952668805, 0.922687842759339])
        #expect(Self.draws(seed: -7, count: 5) == [0.49494571995261477, 0.6273272391660195, 0.5190871394052206, 0.3569643570848055, 0.7317059564873211])
        #expect(Self.draws(seed: 123_456_789, count: 1) == [0.28299807513202446])
        #expect(Self.draws(seed: 9_007_199_254_740_991, count: 1) == [0.3669125993459986])
    }

    /// A thousand draws go through the rarer path too (a first number below 2^44 lengthened twice): their
    /// sum, added in order, and the last are the reference's.
    @Test func aThousandDrawsSumAsTheReferenceDoes() {
        let draws = Self.draws(seed: 3, count: 1000)
        #expect(draws.reduce(0, +) == 507.7979890723823)
        #expect(draws.last == 0.7137055639982023)
    }

    @Test func theStateSurvivesJSONAndABadOneIsRefused() throws {
        var state = CSRandom.State(seed: 5)
        _ = CSRandom.next(&state)
        let json = try JSONValueEncoder.sorted.encode(state)
        var decoded = try JSONValueDecoder().decode(CSRandom.State.self, from: json)
        #expect(decoded == state)
        #expect(CSRandom.next(&decoded) == CSRandom.next(&state))
        #expect(throws: (any Error).self) { try JSONValueDecoder().decode(CSRandom.State.self, from: "\"00ff\"") }
    }

    /// `*rand` on randomtest's path: each option taken spends one number (randomtest's pick), so the rolls
    /// are the 1st, 3rd, 5th and 7th numbers of seed 0, whichever option is taken.
    @Test func randRollsAsRandomtestDoesAlongAPath() throws {
        let game = CSGame(sceneTexts: ["startup": """
            *create roll 0
            *create n 0
            *label again
            *rand roll 1 1000
            Rolled ${roll}.
            *set n +1
            *if n > 3
              *ending
            *choice
              #Again.
                *goto again
              #Again too.
                *goto again
            """])
        let runtime = CSRuntime(game: game, seed: 0)
        var rolls = [CSRuntimeTests.paragraphs(runtime.start())]
        for option in [0, 1, 1] { rolls.append(CSRuntimeTests.paragraphs(try runtime.choose(option))) }
        #expect(rolls == [["Rolled 781."], ["Rolled 532."], ["Rolled 877."], ["Rolled 732."]])
    }
}
