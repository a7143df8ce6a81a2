import Testing

@testable import PajamaModel
@testable import PajamaReading
@testable import PajamaTerminal

/// The backlog overlay in the presenter: `b` asks for the pages, they open newest-selected at the bottom,
/// ↑ ↓ move, Enter goes back, Esc closes; a follower may look but not go back.
@MainActor @Suite struct BacklogOverlayTests {
    static let entries = [
        BacklogEntry(historyIndex: 0, location: StoryLocation(beatId: "intro", pageId: "one"), lines: ["The lamp was lit."]),
        BacklogEntry(historyIndex: 1, location: StoryLocation(beatId: "fork", pageId: "ask"), lines: ["Which way?"], choice: "Left by the river"),
        BacklogEntry(historyIndex: 2, location: StoryLocation(beatId: "left", pageId: "p"), lines: ["The river was wide."]),
    ]

    @Test func bOpensTheBacklogAndEnterGoesBackToTheSelectedPage() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        #expect(h.type("b") == [.openBacklog])
        h.handle(.backlog(Self.entries))
        let text = h.text()
        #expect(text.contains("Backlog"), "\(text)")
        #expect(text.contains("The lamp was lit.") && text.contains("→ Left by the river") && text.contains("The river was wide."))
        let lines = text.split(separator: "\n").map(String.init)
        let lamp = lines.firstIndex { $0.contains("The lamp was lit.") }!, river = lines.firstIndex { $0.contains("The river was wide.") }!
        #expect(lamp < river, "newest at the bottom")
        #expect(h.press(.up, .up) == [])
        #expect(h.press(.enter) == [.goBack(toHistoryIndex: 0)])
        #expect(!h.text().contains("Backlog"), "Enter closes the backlog")
    }

    @Test func enterOnTheNewestPageOnlyCloses() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.backlog(Self.entries))
        #expect(h.press(.enter) == [])
        #expect(!h.text().contains("Backlog"))
    }

    @Test func escapeClosesWithoutQuitting() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.backlog(Self.entries))
        #expect(h.press(.escape) == [])
        #expect(!h.text().contains("Backlog"))
        #expect(h.press(.escape) == [.quit], "with the backlog closed, Esc quits again")
    }

    @Test func theSelectionScrollsALongBacklog() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.textPage)
        let many = (0..<30).map { BacklogEntry(historyIndex: $0, location: StoryLocation(beatId: "b", pageId: "p\($0)"), lines: ["page number \($0)"]) }
        h.handle(.backlog(many))
        #expect(h.text().contains("page number 29") && !h.text().contains("page number 20"))
        for _ in 0..<29 { h.press(.up) }
        #expect(h.text().contains("page number 0") && !h.text().contains("page number 29"))
        #expect(h.press(.enter) == [.goBack(toHistoryIndex: 0)])
    }

    @Test func nothingReadYetSaysSo() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.backlog([]))
        #expect(h.text().contains("nothing read yet") && !h.text().contains("Backlog ·"))
    }

    @Test func theEndScreenOpensTheBacklog() {
        var h = PresenterHarness()
        h.show(Fixture.finished)
        #expect(h.type("b") == [.openBacklog])
    }

    @Test func aFollowerMayReadTheBacklogButNotGoBack() {
        var h = PresenterHarness(role: .follower(owner: "Ada"))
        h.show(Fixture.textPage)
        #expect(h.type("b") == [.openBacklog])
        h.handle(.backlog(Self.entries))
        h.press(.up)
        #expect(h.press(.enter) == [])
        #expect(h.text().contains("only Ada turns the pages"))
    }

    @Test func storyTextInTheBacklogIsSanitized() {
        var h = PresenterHarness()
        h.show(Fixture.textPage)
        h.handle(.backlog([BacklogEntry(historyIndex: 0, location: StoryLocation(beatId: "e", pageId: "p"), lines: ["hi\u{1b}[2Jthere"])]))
        for cell in h.frame().grid.cells { #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 }) }
    }
}
