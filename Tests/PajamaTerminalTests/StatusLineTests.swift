import PajamaImage
import Testing

@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaTerminal

/// The status line for readers: how far along the reading is, "seen before", "▸ ready" from the loading
/// engine's answer; the beat and page only with `--stats`.
@MainActor @Suite struct StatusLineTests {
    static let standing = ReadingStanding(pagesRead: 5, beatsSeen: 3, beatsListed: 9, seenBefore: false)

    @Test func itSaysHowFarAlongWithoutBeatIds() {
        var h = PresenterHarness()
        h.show(.page(Fixture.page(Fixture.textBeat, revealed: 3, standing: Self.standing)))
        let status = h.statusLine()
        #expect(status.contains("5 pages read · 3 of 9 beats seen"), "\(status)")
        #expect(!status.contains("intro") && !status.contains("page 1/2") && !status.contains("seen before") && !status.contains("ready"), "\(status)")
        #expect(h.text().contains(" Test Story"), "the title bar names the story")
    }

    @Test func aStoryThatDoesNotListItsBeatsCountsPagesAlone() {
        var h = PresenterHarness()
        h.show(.page(Fixture.page(Fixture.textBeat, standing: ReadingStanding(pagesRead: 1, beatsSeen: 1, beatsListed: nil))))
        let status = h.statusLine()
        #expect(status.contains("1 page read") && !status.contains("beats seen"), "\(status)")
    }

    @Test func withStatsItNamesTheBeatAndPageFirst() {
        var h = PresenterHarness(showsPosition: true)
        h.show(.page(Fixture.page(Fixture.textBeat, 1, standing: Self.standing)))
        #expect(h.statusLine().contains("intro · page 2/2 · 5 pages read · 3 of 9 beats seen"), "\(h.statusLine())")
        h.show(.loading(StoryLocation(beatId: "fork", pageId: ""), waitingFor: [.beat("fork")]))
        #expect(h.statusLine().contains("fork"))
    }

    @Test func aNoticeWiderThanTheTerminalIsCutNotDropped() {
        // A full disk's message names the file it could not write: wider than 80 columns. It was not drawn
        // at all (the fault matrix's "disk full" row found it), so the reader never learnt that progress
        // was not being saved.
        var h = PresenterHarness(sound: SoundStatus(state: .sampleCache))
        h.show(.page(Fixture.page(Fixture.textBeat, standing: Self.standing)))
        _ = h.handle(.notice("cannot save progress: No space left on device (writing /home/reader/.local/share/pajama/progress/.a-long-story-id.json.4242.tmp)"))
        let status = h.statusLine()
        #expect(status.contains("cannot save progress: No space left on device"), "\(h.text())")
        #expect(status.contains("…"), "\(status)")
        #expect(status.hasSuffix("sound: on 100%"), "\(status)")
        #expect(DisplayWidth.of(status) <= 80)
    }

    @Test func aPageSeenBeforeIsMarked() {
        var h = PresenterHarness()
        var standing = Self.standing
        standing.seenBefore = true
        h.show(.page(Fixture.page(Fixture.textBeat, standing: standing)))
        #expect(h.statusLine().contains("3 of 9 beats seen · seen before"), "\(h.statusLine())")
    }

    @Test func readyShowsForThePageTheLoadingEngineAnsweredFor() {
        var h = PresenterHarness()
        let page = Fixture.page(Fixture.textBeat, standing: Self.standing)
        h.show(.page(page))
        // An answer for another page (the reader moved on meanwhile) changes nothing.
        h.handle(.nextPagesReady(StoryLocation(beatId: "fork", pageId: "ask"), true))
        #expect(!h.statusLine().contains("▸ ready"))
        h.handle(.nextPagesReady(page.location, false))
        #expect(!h.statusLine().contains("▸ ready"))
        h.handle(.nextPagesReady(page.location, true))
        #expect(h.statusLine().contains("5 pages read · 3 of 9 beats seen · ▸ ready"), "\(h.statusLine())")
        // A further line revealed is the same page: still ready. The next page has not been answered for.
        var revealed = page
        revealed.revealedLines = 2
        revealed.location.lineIndex = 1
        h.show(.page(revealed))
        #expect(h.statusLine().contains("▸ ready"))
        h.show(.page(Fixture.page(Fixture.textBeat, 1, standing: Self.standing)))
        #expect(!h.statusLine().contains("▸ ready"))
    }

    @Test func theEndScreenSaysTheEnd() {
        var h = PresenterHarness()
        h.show(Fixture.finished)
        #expect(h.statusLine().contains("the end") && !h.statusLine().contains("intro"), "\(h.statusLine())")
    }
}
