import PajamaModel
import PajamaReading
import Testing

/// `pajama play`'s reading: every line and page, the given choices in order, and where it stops.
@MainActor @Suite struct ScriptedReadingTests {
    func run(_ choices: [Int], beats: [Beat]? = nil) async -> ScriptedReading.Outcome {
        let (manifest, story) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats ?? story), sound: nil, progress: nil)
        let outcome = await ScriptedReading.run(vm, choices: choices)
        await vm.close()
        return outcome
    }

    let choicePage = StoryLocation(beatId: "start", pageId: "choose")

    @Test func theGivenChoicesLeadToTheirEnding() async {
        #expect(await run([1]) == .ending(StoryLocation(beatId: "left", pageId: "p"), unusedChoices: 0))
        #expect(await run([2, 1]) == .ending(StoryLocation(beatId: "right", pageId: "p"), unusedChoices: 1))
    }

    @Test func aChoiceOutOfRangeOrNoChoiceLeftSaysWhere() async {
        #expect(await run([3]) == .choiceOutOfRange(number: 3, position: 1, offered: 2, at: choicePage))
        #expect(await run([]) == .choicesRanOut(given: 0, offered: 2, at: choicePage))
    }

    @Test func aMissingBeatIsAFailureNamingIt() async {
        let (_, story) = ReaderViewModelTests.story()
        guard case .failed(let failure) = await run([1], beats: story.filter { $0.id != "left" }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.location.beatId == "left")
        #expect(failure.error.kind == .notFound)
    }

    @Test func aStoryThatLoopsByItselfStopsAtTheMoveLimit() async {
        let manifest = StoryManifest(id: "loop", title: "L", startBeatId: "a", beats: ["a", "b"], lineByLine: false)
        let a = Beat(id: "a", pages: [Page(id: "p", kind: .text(lines: ["x"]))], nextBeatId: "b")
        let b = Beat(id: "b", pages: [Page(id: "p", kind: .text(lines: ["y"]))], nextBeatId: "a")
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: [a, b]), sound: nil, progress: nil)
        let outcome = await ScriptedReading.run(vm, choices: [], moveLimit: 50)
        await vm.close()
        guard case .noEnding(50, _) = outcome else {
            Issue.record("expected no ending after 50 moves, got \(outcome)")
            return
        }
    }
}
