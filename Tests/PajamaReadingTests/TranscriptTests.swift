@testable import PajamaModel
@testable import PajamaReading
import Testing

/// The transcript as the reader's events make it: pages as revealed, choices taken, the end, and story text
/// made safe to print.
@MainActor @Suite struct TranscriptTests {
    @Test func readingToAnEndingWritesEachPageOnceAndEachLineAsRevealed() async throws {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let events = vm.events()
        await vm.start()
        for _ in 0..<4 { await vm.changePage(.advance) }
        await vm.changePage(.choose(1))
        await vm.changePage(.advance)
        await vm.close()
        var transcript = Transcript()
        var text = ""
        for await event in events { text += transcript.record(event) }
        #expect(text == """
            T

            a
            b
            c

            ?
              1. L
              2. R
            > 2. R

            line 0 of right

            The End

            """)
    }

    @Test func aPageEnteredAgainIsWrittenAgainAndRevealingNothingNewWritesNothing() {
        let (_, beats) = ReaderViewModelTests.story()
        let start = beats[0]
        func state(_ pageIndex: Int, revealed: Int) -> NavigatorEvent {
            let page = start.pages[pageIndex]
            return .stateChanged(.page(PageState(
                beat: start, page: page, location: StoryLocation(beatId: "start", pageId: page.id, lineIndex: revealed - 1),
                pageIndex: pageIndex, revealedLines: revealed, canGoBack: true, isEnding: false)))
        }
        var transcript = Transcript()
        #expect(transcript.record(state(1, revealed: 2)) == "a\nb\n")
        #expect(transcript.record(state(1, revealed: 2)) == "")
        #expect(transcript.record(.notice("ignored")) == "")
        #expect(transcript.record(state(0, revealed: 1)) == "\nT\n")
        #expect(transcript.record(state(1, revealed: 1)) == "\na\n")
    }

    /// The end screen's figures can come again on the same visit (the endings counted later): "The End" is
    /// written once (TranscriptTests' whole reading wrote it twice under load). Back to the page and on to the
    /// end again is a new end, written again.
    @Test func theEndScreenShownAgainWithNewFiguresIsWrittenOnce() {
        let beat = Beat(id: "end", pages: [Page(id: "p", kind: .text(lines: ["last"]))])
        let page = PageState(beat: beat, page: beat.pages[0], location: StoryLocation(beatId: "end", pageId: "p", lineIndex: 0),
                             pageIndex: 0, revealedLines: 1, canGoBack: true, isEnding: true)
        var transcript = Transcript()
        #expect(transcript.record(.stateChanged(.finished(page, EndSummary(pagesRead: 3, choicesMade: 1, endingsFound: 1, endingsTotal: 0)))) == "last\n\nThe End\n")
        #expect(transcript.record(.stateChanged(.finished(page, EndSummary(pagesRead: 3, choicesMade: 1, endingsFound: 1, endingsTotal: 2)))) == "")
        #expect(transcript.record(.stateChanged(.page(page))) == "")
        #expect(transcript.record(.stateChanged(.finished(page, EndSummary(pagesRead: 3, choicesMade: 1, endingsFound: 1, endingsTotal: 2)))) == "\nThe End\n")
    }

    @Test func controlSequencesAndBidiOverridesInStoryTextAreNotWritten() {
        let beat = Beat(id: "b", pages: [Page(id: "p", kind: .text(lines: ["\u{1B}]0;owned\u{07}x", "a\u{202E}b", "bell\u{07}"]))])
        var transcript = Transcript()
        let text = transcript.record(.stateChanged(.page(PageState(
            beat: beat, page: beat.pages[0], location: StoryLocation(beatId: "b", pageId: "p", lineIndex: 2), pageIndex: 0,
            revealedLines: 3, canGoBack: false, isEnding: false))))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E })
        #expect(text == "\u{FFFD}x\na\u{FFFD}b\nbell\u{FFFD}\n")
    }
}
