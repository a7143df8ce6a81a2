import PajamaImage
import PajamaTestSupport
import Testing

@testable import PajamaTerminal

/// The frame path without allocations or needless work: two grids take turns (`CellGrid.clear` keeps the
/// storage), a new frame reports only the cells that changed (`forEachChange`, what `Screen` sends), a
/// style's look is worked out once (`StyleLookTable`), and the printable-ASCII shortcuts of wrapping and
/// drawing text give what the character-by-character paths give.
@MainActor @Suite struct FrameBufferTests {
    private func changes(_ grid: CellGrid, since before: CellGrid?, columns: Int? = nil, rows: Int? = nil) -> [String] {
        var found: [String] = []
        grid.forEachChange(since: before, columns: columns ?? grid.width, rows: rows ?? grid.height) { x, y, cell in
            found.append("\(x),\(y):\(cell.text)")
        }
        return found
    }

    @Test func aFrameAfterAChangeReportsOnlyTheChangedCells() {
        var before = CellGrid(width: 30, height: 5)
        before.fill(y: 0, style: Style(.status))
        before.put("The lamp was lit.", x: 2, y: 2)
        var after = before
        after.put("d", x: 15, y: 2)  // "lit." -> "lid."
        after.put("!", x: 29, y: 4)
        #expect(changes(after, since: before) == ["15,2:d", "29,4:!"])
        // A change of style alone is a change.
        after[3, 0] = CellGrid.Cell(glyph: .space, style: Style(.selected))
        #expect(changes(after, since: before) == ["3,0: ", "15,2:d", "29,4:!"])
        // The same frame again: nothing to send.
        #expect(changes(before, since: before).isEmpty)
    }

    @Test func aPresenterFrameAfterASelectionMoveChangesOnlyTheChoiceRows() {
        var h = PresenterHarness(width: 60, height: 16)
        h.show(Fixture.choicePage)
        var first = CellGrid(width: 0, height: 0)
        _ = h.presenter.render(into: &first)
        h.press(.down)
        var second = CellGrid(width: 0, height: 0)
        _ = h.presenter.render(into: &second)
        var expected: [String] = []
        for y in 0..<16 {
            for x in 0..<60 where first[x, y] != second[x, y] { expected.append("\(x),\(y):\(second[x, y].text)") }
        }
        let reported = changes(second, since: first)
        #expect(!reported.isEmpty && reported == expected)
        let rows = Set(reported.map { $0.split(separator: ",")[1].split(separator: ":")[0] })
        #expect(rows.count == 2)  // the choice selected before, and the one selected now
    }

    @Test func withoutTheFrameBeforeOrAtAnotherSizeEveryCellIsReported() {
        var grid = CellGrid(width: 4, height: 2)
        grid.put("ab", x: 0, y: 0)
        #expect(changes(grid, since: nil).count == 8)
        #expect(changes(grid, since: CellGrid(width: 5, height: 2)).count == 8)
        // Only the part asked for (the screen may be smaller than the grid).
        #expect(changes(grid, since: nil, columns: 3, rows: 1) == ["0,0:a", "1,0:b", "2,0: "])
        #expect(changes(grid, since: nil, columns: 9, rows: 0).isEmpty)
    }

    @Test func clearingAGridBlanksItInItsOwnStorage() {
        var grid = CellGrid(width: 20, height: 3)
        grid.put("words", x: 1, y: 1, style: Style(.title))
        let storage = grid.cells.withUnsafeBufferPointer { $0.baseAddress }
        grid.clear(width: 20, height: 3)
        #expect(grid.cells.withUnsafeBufferPointer { $0.baseAddress } == storage)
        #expect(grid == CellGrid(width: 20, height: 3))
        grid.clear(width: 7, height: 2)
        #expect(grid == CellGrid(width: 7, height: 2))
        // A grid someone else holds is copied, not changed under them.
        let shown = grid
        grid.put("x", x: 0, y: 0)
        grid.clear(width: 7, height: 2)
        #expect(shown == CellGrid(width: 7, height: 2) && grid == shown)
    }

    @Test func theTerminalHandsBackTheFrameBeforeForTheNextOne() {
        let terminal = HeadlessTerminal(width: 10, height: 2)
        var first = CellGrid(width: 10, height: 2)
        first.put("one", x: 0, y: 0)
        #expect(terminal.draw(first) == nil)
        var second = CellGrid(width: 10, height: 2)
        second.put("two", x: 0, y: 0)
        #expect(terminal.draw(second) == first)
        #expect(terminal.lastFrame == second)
    }

    @Test func cellsArePlainIntegersWithoutPadding() {
        // Rows are compared as memory: equal bytes must mean equal cells and the reverse.
        #expect(MemoryLayout<CellGrid.Cell>.size == 24)
        #expect(MemoryLayout<CellGrid.Cell>.stride == 24)
        #expect(MemoryLayout<Style>.size == 8)
    }

    @Test func aStyleKeepsItsRoleAndPictureColours() {
        for role in StyleRole.allCases {
            var style = Style(role)
            #expect(style.role == role && style.pictureForeground == nil && style.pictureBackground == nil)
            style.pictureBackground = .rgb(0x123456)
            #expect(style.role == role && style.pictureBackground == .rgb(0x123456))
        }
        let colors: [PictureColor?] = [nil, .rgb(0), .rgb(0xFFFFFF), .rgb(0xA0B0C0), .palette(0), .palette(16), .palette(255)]
        for fg in colors {
            for bg in colors {
                let style = Style(pictureForeground: fg, pictureBackground: bg)
                #expect(style.role == .picture && style.pictureForeground == fg && style.pictureBackground == bg)
            }
        }
        var style = Style(pictureForeground: .palette(3), pictureBackground: nil)
        style.role = .dim
        #expect(style.pictureForeground == .palette(3) && style.role == .dim)
        // No terminal has these palette entries; they read back as one that no terminal has either.
        #expect(Style(pictureForeground: .palette(300), pictureBackground: .palette(-5)).pictureForeground == .palette(-1))
        #expect(ColorMapper(colors: 256).number(.palette(-1)) == ColorMapper(colors: 256).number(.palette(300)))
        #expect(Style(.text) != Style(.title) && Style(pictureForeground: .rgb(1), pictureBackground: nil) != Style(pictureForeground: .palette(1), pictureBackground: nil))
    }

    @Test func aStylesLookIsWorkedOutOncePerTableUntilItIsCleared() {
        var table = StyleLookTable<String>()
        var made: [Style] = []
        let styles = StyleRole.allCases.map { Style($0) }
            + (0..<600).map { Style(pictureForeground: .rgb(UInt32($0) * 7919), pictureBackground: .palette($0 % 256)) }
        func look(_ style: Style) -> String {
            made.append(style)
            return "\(style.role) \(String(describing: style.pictureForeground)) \(String(describing: style.pictureBackground))"
        }
        // Every answer is the style's own look, collisions or not.
        for style in styles + styles { #expect(table.look(style, look) == look(style)) }
        // A fresh table works each look out once, and again after it is cleared.
        table = StyleLookTable<String>()
        made.removeAll()
        for _ in 0..<3 {
            _ = table.look(Style(.status), look)
            _ = table.look(Style(.text), look)
        }
        #expect(made == [Style(.status), Style(.text)])
        table.removeAll()
        _ = table.look(Style(.status), look)
        #expect(made == [Style(.status), Style(.text), Style(.status)])
    }

    @Test func printableASCIIShortcutsGiveWhatTheCharacterPathsGive() {
        var random = SeededGenerator(seed: 14)
        let alphabet = Array("abc de  fghijklmnopqrstuvwxyz.,;'!?-()[]{}0123456789ABCXYZ     ~")
        for _ in 0..<400 {
            let text = String((0..<Int.random(in: 0...90, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let width = Int.random(in: 1...30, using: &random)
            #expect(TextWrapper.wrap(text, width: width) == TextWrapper.wrapCharacters(text, width: width), "\(text) at \(width)")
            let x = Int.random(in: -5...25, using: &random), limit = Int.random(in: -2...40, using: &random)
            var fast = CellGrid(width: 30, height: 1), slow = fast
            let used = fast.put(text, x: x, y: 0, style: Style(.choice), maxWidth: limit)
            let slowUsed = x < 30 ? slow.putCharacters(text, x: x, y: 0, style: Style(.choice), limit: min(limit, 30 - max(x, 0))) : 0
            #expect(used == slowUsed && fast == slow, "\(text) at \(x), \(limit)")
        }
    }
}
