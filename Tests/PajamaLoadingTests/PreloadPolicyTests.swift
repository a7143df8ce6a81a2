import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// PreloadPolicy is pure: each test gives it a story as a dictionary of beats and reads the plan.
@Suite struct PreloadPolicyTests {
    /// A beat whose one page offers a choice of `targets`.
    static func choice(_ id: String, _ targets: [String]) -> Beat {
        Beat(id: id, pages: [Page(id: "q", kind: .choice(prompt: nil, choices: targets.map { Choice(text: $0, targetBeatId: $0) }))])
    }

    static func chain(_ ids: [String], then last: Beat? = nil) -> [String: Beat] {
        var beats: [String: Beat] = [:]
        for (i, id) in ids.enumerated() { beats[id] = beat(id, next: i + 1 < ids.count ? ids[i + 1] : last?.id) }
        if let last { beats[last.id] = last }
        return beats
    }

    func plan(_ policy: PreloadPolicy, _ beats: [String: Beat], from id: String, behind: [String] = []) -> [String] {
        policy.plan(from: id, behind: behind) { beats[$0] }
    }

    @Test func theCommittedPathIsFollowedAheadStepsDeep() {
        let beats = Self.chain((0..<9).map { "n\($0)" })
        #expect(plan(.standard, beats, from: "n0") == ["n0", "n1", "n2", "n3", "n4", "n5"])
        #expect(plan(PreloadPolicy(ahead: 2), beats, from: "n3") == ["n3", "n4", "n5"])
    }

    @Test func theNextChoicesTargetsAreWantedButNotTheBeatsPastThem() {
        // a -> b -> q (choice of x or y); x -> x2, y -> y2.
        var beats = Self.chain(["a", "b"], then: Self.choice("q", ["x", "y"]))
        beats.merge(Self.chain(["x", "x2"])) { $1 }
        beats.merge(Self.chain(["y", "y2"])) { $1 }
        #expect(plan(.standard, beats, from: "a") == ["a", "b", "q", "x", "y"])
        // One step past the choice each way when asked for.
        #expect(plan(PreloadPolicy(beyondChoice: 2), beats, from: "a") == ["a", "b", "q", "x", "y", "x2", "y2"])
        // No choice crossed: the path stops at the choice page.
        #expect(plan(PreloadPolicy(choices: 0), beats, from: "a") == ["a", "b", "q"])
    }

    @Test func onlyOneChoiceIsCrossedByDefault() {
        // q offers x or y; x offers u or v.
        var beats = [String: Beat]()
        beats["q"] = Self.choice("q", ["x", "y"])
        beats["x"] = Self.choice("x", ["u", "v"])
        beats["y"] = beat("y")
        beats["u"] = beat("u")
        beats["v"] = beat("v")
        #expect(plan(.standard, beats, from: "q") == ["q", "x", "y"])
        #expect(plan(PreloadPolicy(choices: 2, beyondChoice: 2), beats, from: "q") == ["q", "x", "y", "u", "v"])
    }

    @Test func aChoiceWithOneTargetIsPartOfTheCommittedPath() {
        let beats = ["a": Self.choice("a", ["b", "b"]), "b": beat("b", next: "c"), "c": beat("c")]
        #expect(plan(.standard, beats, from: "a") == ["a", "b", "c"])
    }

    @Test func wideWantsEveryBeatWithinItsStepsWhateverTheChoices() {
        var beats = [String: Beat]()
        beats["a"] = Self.choice("a", ["b1", "b2"])
        beats["b1"] = Self.choice("b1", ["c1", "c2"])
        beats["b2"] = beat("b2", next: "c3")
        beats["c1"] = beat("c1", next: "d1")
        for id in ["c2", "c3", "d1"] { beats[id] = beat(id) }
        #expect(plan(.wide(ahead: 2), beats, from: "a") == ["a", "b1", "b2", "c1", "c2", "c3"])
        #expect(plan(.wide(), beats, from: "a") == ["a", "b1", "b2", "c1", "c2", "c3", "d1"])
    }

    @Test func everyBeatWithinItsStepsIsWantedWhateverTheChoicesNearestFirst() {
        // q offers x or y; x -> x2 -> x3; y offers u or v.
        var beats = Self.chain(["x", "x2", "x3"])
        beats["q"] = Self.choice("q", ["x", "y"])
        beats["y"] = Self.choice("y", ["u", "v"])
        for id in ["u", "v"] { beats[id] = beat(id) }
        #expect(plan(.standard, beats, from: "q") == ["q", "x", "y"])
        #expect(plan(PreloadPolicy(everyBeatWithin: 2), beats, from: "q") == ["q", "x", "y", "x2", "u", "v"])
        #expect(plan(PreloadPolicy(everyBeatWithin: 1), beats, from: "q") == ["q", "x", "y"])
    }

    @Test func nearBeatsPastAChoiceComeBeforeFartherBeatsOfTheCommittedPath() {
        // a -> b -> c -> d -> e along the path; a also offers x or y; x -> x2, y -> y2.
        var beats = Self.chain(["b", "c", "d", "e"])
        beats["a"] = Beat(id: "a", pages: [Page(id: "q", kind: .choice(prompt: nil, choices: [Choice(text: "x", targetBeatId: "x"),
                                                                                                 Choice(text: "y", targetBeatId: "y")]))],
                          nextBeatId: "b")
        beats.merge(Self.chain(["x", "x2"])) { $1 }
        beats.merge(Self.chain(["y", "y2"])) { $1 }
        #expect(plan(.standard, beats, from: "a") == ["a", "b", "x", "y", "c", "d", "e"])
        // x2 and y2 are needed 2 pages from now at the earliest, d 3: the earliest deadline first.
        #expect(plan(PreloadPolicy(everyBeatWithin: 2), beats, from: "a") == ["a", "b", "x", "y", "c", "x2", "y2", "d", "e"])
    }

    @Test func aTimedPolicyLooksAheadAsManyPagesAsTwoRoundTripsAndTheLargestTransferTake() {
        // 2 x 80 ms + 500 KB at 2 MB/s = 410 ms: 2 pages of 250 ms.
        #expect(PreloadPolicy.timed(pageSeconds: 0.25, latency: 0.08, bytesPerSecond: 2_000_000, largestAsset: 500_000).everyBeatWithin == 2)
        // 160 ms + 1 s at 500 KB/s: 5 pages (never past the path's 5 steps).
        #expect(PreloadPolicy.timed(pageSeconds: 0.25, latency: 0.08, bytesPerSecond: 500_000, largestAsset: 500_000).everyBeatWithin == 5)
        #expect(PreloadPolicy.timed(pageSeconds: 0.1, latency: 0.3, bytesPerSecond: 2_000_000, largestAsset: 500_000).everyBeatWithin == 5)
        // Beats only, on a quick link: one page covers the round trips; the rest is the standard window.
        let quick = PreloadPolicy.timed(pageSeconds: 0.25, latency: 0.08, bytesPerSecond: 2_000_000, largestAsset: 300)
        #expect(quick == PreloadPolicy(everyBeatWithin: 1))
        #expect(PreloadPolicy.timed(pageSeconds: 0, latency: 0.08, bytesPerSecond: 2_000_000, largestAsset: 300) == .standard)
    }

    @Test func thePlanStopsAtABeatItDoesNotKnowYet() {
        let beats = ["a": beat("a", next: "b")]
        #expect(plan(.standard, beats, from: "a") == ["a", "b"])
        #expect(plan(.standard, [:], from: "a") == ["a"])
    }

    @Test func beatsBehindComeLastMostRecentFirstWithoutRepeats() {
        let beats = Self.chain(["a", "b", "c"])
        #expect(plan(.standard, beats, from: "b", behind: ["a", "z", "y"]) == ["b", "c", "a", "z"])
        // A recent beat that is also ahead is wanted once, where it is first needed; it still uses a place behind.
        #expect(plan(.standard, beats, from: "a", behind: ["c", "z"]) == ["a", "b", "c", "z"])
        #expect(plan(PreloadPolicy(behind: 0), beats, from: "b", behind: ["a"]) == ["b", "c"])
    }
}
