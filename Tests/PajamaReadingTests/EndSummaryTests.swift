import Foundation
@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaStorage
import PajamaTestSupport
import Testing

/// The end screen's figures: pages read, choices made, endings found (remembered per story across
/// sessions and restarts) and how many endings the story has.
@MainActor @Suite struct EndSummaryTests {
    func summary(_ vm: ReaderViewModel) -> EndSummary? {
        if case .finished(_, let summary) = vm.state { return summary }
        return nil
    }

    /// From the start, through the choice page, takes choice `index` and reads past the ending's last page.
    func readToEnding(_ vm: ReaderViewModel, choosing index: Int) async {
        await vm.changePage(.advance)  // text
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        await vm.changePage(.advance)  // choice page
        await vm.changePage(.choose(index))
        await vm.changePage(.advance)  // past the ending
    }

    @Test func theEndSummaryCountsPagesChoicesAndEndingsOfTheListedBeats() async throws {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start()
        await readToEnding(vm, choosing: 1)
        let first = try #require(summary(vm), "expected the end screen, got \(vm.state)")
        #expect(first.pagesRead == 4 && first.choicesMade == 1 && first.endingsFound == 1)
        // The listed beats are counted in the background: left and right are endings, start is not.
        #expect(await log.waitFor { $0.contains { if case .stateChanged(.finished(_, let s)) = $0 { s.endingsTotal == 2 } else { false } } },
                 "\(vm.state)")
        // Back shows the ending's page again; going on shows the end screen again, with the same figures.
        await vm.changePage(.back)
        guard case .page = vm.state else { Issue.record("back from the end shows the page, got \(vm.state)"); return }
        await vm.changePage(.advance)
        #expect(summary(vm) == EndSummary(pagesRead: 4, choicesMade: 1, endingsFound: 1, endingsTotal: 2))
        await vm.close()
    }

    @Test func aStoryThatDoesNotListItsBeatsHasNoTotal() async throws {
        var (manifest, beats) = ReaderViewModelTests.story()
        manifest.beats = nil
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        await readToEnding(vm, choosing: 0)
        #expect(summary(vm) == EndSummary(pagesRead: 4, choicesMade: 1, endingsFound: 1, endingsTotal: nil))
        await vm.close()
    }

    @Test func aListedBeatThatCannotBeReadLeavesTheTotalUnknown() async throws {
        var (manifest, beats) = ReaderViewModelTests.story()
        manifest.beats = ["start", "left", "right", "gone"]
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        await readToEnding(vm, choosing: 0)
        // Nothing on screen changes when the count ends unknown: the record says it.
        #expect(await eventually { vm.record.endingsCount == .counted(nil) }, "the count must finish, unknown")
        #expect(summary(vm)?.endingsTotal == nil)
        await vm.close()
    }

    @Test func endingsFoundAreRememberedAcrossSessionsAndRestarts() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-endings")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story()

        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        await readToEnding(first, choosing: 0)
        #expect(summary(first)?.endingsFound == 1)
        // Restarting in the session keeps the endings found and starts the counts afresh.
        await first.restart()
        await readToEnding(first, choosing: 0)
        #expect(summary(first).map { ($0.endingsFound, $0.choicesMade, $0.pagesRead) } ?? (0, 0, 0) == (1, 1, 4),
                "the same ending again is not a new one: \(String(describing: summary(first)))")
        await first.close()

        // Another session, started with --restart: the endings found are still there.
        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start(restart: true)
        await readToEnding(second, choosing: 1)
        #expect(summary(second)?.endingsFound == 2)
        await second.close()
        #expect(store.load(storyId: "s").progress?.endingsFound == ["left", "right"])
    }

    @Test func choicesMadeAreResumedFromTheProgressFile() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-choices")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story()
        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        for _ in 0..<4 { await first.changePage(.advance) }
        await first.changePage(.choose(1))
        await first.close()
        #expect(store.load(storyId: "s").progress?.choicesMade == 1)

        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start()
        await second.changePage(.advance)
        #expect(summary(second)?.choicesMade == 1)
        await second.close()
    }

    @Test func aProgressFileWrittenBeforeTheEndScreenStillLoads() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-old-progress")
        defer { dir.remove() }
        let old = #"{"finished":false,"history":[{"beatId":"start","lineIndex":0,"pageId":"title"}],"location":{"beatId":"start","lineIndex":0,"pageId":"title"},"pagesRead":1}"#
        try Data(old.utf8).write(to: dir.url.appendingPathComponent("s.json"))
        let (progress, warning) = ProgressStore(folder: dir.url).load(storyId: "s")
        #expect(warning == nil)
        #expect(progress?.choicesMade == nil && progress?.endingsFound == nil && progress?.pagesRead == 1)
    }

    @Test func aChoiceIsPublishedOnceItsPageIsEnteredAndNotWhenItsBeatFails() async throws {
        var (manifest, beats) = ReaderViewModelTests.story()
        beats.removeAll { $0.id == "right" }
        manifest.beats = nil
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let events = vm.events()
        await vm.start()
        for _ in 0..<4 { await vm.changePage(.advance) }
        await vm.changePage(.choose(1))  // "right" is missing: not taken
        await vm.changePage(.back)
        await vm.changePage(.choose(0))
        await vm.close()
        var taken: [TakenChoice] = []
        for await event in events { if case .choiceTaken(let choice) = event { taken.append(choice) } }
        #expect(taken == [TakenChoice(from: StoryLocation(beatId: "start", pageId: "choose"), index: 0, text: "L")])
    }
}
