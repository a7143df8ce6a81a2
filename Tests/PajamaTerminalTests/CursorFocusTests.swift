import Testing

@testable import PajamaTerminal

/// The terminal's cursor parked on the focus (issue 35, item 9), for screen readers and braille displays
/// that follow it: the start of the selected choice on a choice page, the start of the last revealed
/// line elsewhere, "The End" on the end screen (docs/reader.md, "The cursor").
@MainActor @Suite struct CursorFocusTests {
    /// The cell where `needle` starts in the frame.
    static func cell(of needle: String, in h: inout PresenterHarness) -> CellPosition? {
        h.position(of: needle).map { CellPosition(x: $0.x, y: $0.y) }
    }

    @Test func onAChoicePageTheCursorIsAtTheSelectedChoice() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(Fixture.choicePage)
        #expect(h.frame().grid.cursor == Self.cell(of: "› 1. Left", in: &h))
        h.press(.down)
        #expect(h.frame().grid.cursor == Self.cell(of: "› 2. Right", in: &h))
        h.press(.down)
        #expect(h.frame().grid.cursor == Self.cell(of: "› 3. Back", in: &h))
    }

    @Test func onATextPageTheCursorIsAtTheLastLineRevealed() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(.page(Fixture.page(Fixture.textBeat, revealed: 2)))
        #expect(h.frame().grid.cursor == Self.cell(of: "Wind at the door.", in: &h))
        h.show(.page(Fixture.page(Fixture.textBeat, revealed: 3)))
        #expect(h.frame().grid.cursor == Self.cell(of: "A knock.", in: &h))
    }

    @Test func onTheEndScreenTheCursorIsAtTheEnd() {
        var h = PresenterHarness(width: 60, height: 16)
        h.show(Fixture.finished)
        #expect(h.frame().grid.cursor == Self.cell(of: "The End", in: &h))
    }

    @Test func onALongChoiceListTheCursorFollowsTheSelectionOutOfTheFirstScreen() {
        var h = PresenterHarness(width: 40, height: 12)
        h.show(.page(Fixture.page(ManyChoicesKeyTests.beat)))
        for _ in 0..<15 { h.press(.down) }
        #expect(h.frame().grid.cursor == Self.cell(of: "› 16. Suspect 16", in: &h))
    }

    @Test func theCursorIsParkedWhereTheFrameSaysOnTheHeadlessTerminal() async throws {
        let s = try await ReaderControllerHeadlessTests().start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        t.push(.character(" "), .enter, .right)
        #expect(await t.waitForFrame(containing: "Which door?"))
        t.push(.down)
        #expect(await t.waitForFrame(containing: "› 2. The right door"))
        let lines = t.text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("› 2. The right door") })
        let column = lines[row].distance(from: lines[row].startIndex, to: try #require(lines[row].range(of: "› 2.")).lowerBound)
        #expect(t.cursor == CellPosition(x: column, y: row))
        t.push(.character("q"))
        _ = await s.run.value
        await s.viewModel.close()
    }
}
