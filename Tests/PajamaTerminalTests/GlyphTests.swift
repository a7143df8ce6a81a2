import PajamaImage
import PajamaTerminal
import Testing

/// Cells hold a `Glyph` (up to 4 scalars inline) instead of a String: what goes in comes out, wide
/// characters leave an empty right half, and what ncurses is handed is zero-terminated.
@Suite struct GlyphTests {
    @Test(arguments: ["a", " ", "é", "e\u{301}", "字", "🙂", "👍🏽"])
    func aGraphemeOfAtMostFourScalarsRoundTrips(_ text: String) {
        #expect(Glyph(text).text == text)
        #expect(Glyph(text) == Glyph(Character(text)))
        #expect(!Glyph(text).isEmpty)
    }

    @Test func longerGraphemesKeepTheirFirstFourScalarsAndTheEmptyGlyphIsNothing() {
        let family = "👨‍👩‍👧‍👦"  // 7 scalars
        #expect(Glyph(family).text.unicodeScalars.count == 4)
        #expect(Glyph(family).text.unicodeScalars.elementsEqual(family.unicodeScalars.prefix(4)))
        #expect(Glyph("").isEmpty && Glyph.empty.text.isEmpty)
        #expect(Glyph("ab") == Glyph("a"))
        #expect(Glyph("a") != Glyph("b") && Glyph("e") != Glyph("e\u{301}"))
    }

    @Test func ncursesGetsTheScalarsZeroTerminated() {
        let values = Glyph("e\u{301}").withTerminatedScalars { Array(UnsafeBufferPointer(start: $0, count: 5)) }
        #expect(values == [0x65, 0x301, 0, 0, 0])
        let four = Glyph("👍🏽").withTerminatedScalars { Array(UnsafeBufferPointer(start: $0, count: 5)) }
        #expect(four == [0x1F44D, 0x1F3FD, 0, 0, 0])
    }

    @Test func aWideCharacterTakesTwoCellsTheSecondEmpty() {
        var grid = CellGrid(width: 4, height: 1)
        #expect(grid.put("字x", x: 0, y: 0) == 3)
        #expect(grid[0, 0].glyph == Glyph("字"))
        #expect(grid[1, 0].glyph.isEmpty)
        #expect(grid[2, 0].text == "x")
        #expect(grid[3, 0].glyph == .space)
        #expect(grid.text() == "字x")
    }
}
