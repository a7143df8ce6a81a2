import Testing
@testable import PajamaTerminal

@Suite struct TextLayoutTests {
    @Test func widthsCountCellsNotCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1)  // e + combining acute
        #expect(DisplayWidth.of("🦊") == 2)
        #expect(DisplayWidth.of("한글") == 4)
    }

    @Test func controlCharactersAndEscapesAreReplaced() {
        #expect(DisplayWidth.sanitize("a\u{1b}[2Jb") == "a\u{FFFD}b")
        #expect(DisplayWidth.sanitize("x\u{1b}]0;title\u{07}y") == "x\u{FFFD}y")
        #expect(DisplayWidth.sanitize("bell\u{07}") == "bell\u{FFFD}")
        #expect(DisplayWidth.sanitize("c1\u{9b}31m") == "c1\u{FFFD}31m")
        #expect(!DisplayWidth.sanitize("\u{1b}[31mred\u{1b}[0m").unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func wrapsByDisplayWidth() {
        #expect(TextWrapper.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextWrapper.wrap("日本語のテキスト", width: 6) == ["日本語", "のテキ", "スト"])
        #expect(TextWrapper.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        for line in TextWrapper.wrap("漢字 and 🦊 foxes run 日本語の文章です", width: 7) {
            #expect(DisplayWidth.of(line) <= 7)
        }
    }

    @Test func gridPutClipsAndKeepsWideCharactersWhole() {
        var grid = CellGrid(width: 5, height: 1)
        grid.put("ab日本", x: 0, y: 0)
        #expect(grid.text() == "ab日")
        grid.put("\u{1b}[2J", x: 0, y: 0)
        #expect(grid[0, 0].text == "\u{FFFD}")
    }

    @Test func keyMap() {
        #expect(KeyMap.action(for: .character(" "), onChoicePage: false) == .advance)
        #expect(KeyMap.action(for: .enter, onChoicePage: true) == .takeSelected)
        #expect(KeyMap.action(for: .character("3"), onChoicePage: true) == .digit(3))
        #expect(KeyMap.action(for: .backspace, onChoicePage: false) == .back)
        #expect(KeyMap.action(for: .character("q"), onChoicePage: false) == .quit)
    }

    @Test func colorMapping() {
        #expect(ColorMapper(colors: 1 << 24).number(rgb: 0x123456) == 0x123456)
        #expect(ColorMapper(colors: 256).number(rgb: 0xFF0000) == 196)
        #expect(ColorMapper(colors: 8).number(rgb: "#ff0000", ansi: "red") == 1)
        #expect(ColorMapper(colors: 0).number(rgb: "#ff0000", ansi: "red") == -1)
    }
}
