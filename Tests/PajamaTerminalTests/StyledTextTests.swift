import PajamaModel
import PajamaImage
import PajamaInkBridge
import PajamaPaging
import PajamaTestSupport
import Testing
@testable import PajamaTerminal

/// A page's marks drawn (docs/ink.md, "Markup"): bold, italic, underline and dim cells in the grid, rows
/// broken at hard breaks, wrapping that keeps each character's attributes, and a story's control characters
/// still replaced.
@Suite struct StyledTextTests {
    func render(_ page: Page, width: Int = 80, height: Int = 24) -> CellGrid {
        let model = ScreenModel(storyTitle: "Web", content: .page(PageView(page: page, revealedLines: 9)), position: "", soundStatus: "")
        return PageRenderer.render(model, width: width, height: height)
    }

    /// The cells of the first row holding `word`, from its first character.
    func cells(_ grid: CellGrid, _ word: String) -> [CellGrid.Cell] {
        for y in 0..<grid.height {
            var row = ""
            for x in 0..<grid.width { row += grid[x, y].text.isEmpty ? "\u{0}" : grid[x, y].text }
            if let range = row.range(of: word) {
                let x = row.distance(from: row.startIndex, to: range.lowerBound)
                return (x..<(x + word.count)).map { grid[$0, y] }
            }
        }
        return []
    }

    @Test func spansAreDrawnWithTheirAttributes() {
        let parsed = PageMarkup.parse("The <b>storm</b> came, <i>softly</i>, <u>underlined</u> and <span class=\"dim\">dim</span>.")
        let page = Page(id: "p", kind: .text(lines: [parsed.text]), marks: [parsed.marks(line: 0)!])
        let grid = render(page)
        #expect(grid.text().contains("The storm came, softly, underlined and dim."))
        #expect(!grid.text().contains("<"))
        #expect(cells(grid, "storm").allSatisfy { $0.style.attributes == .bold && $0.style.role == .text })
        #expect(cells(grid, "softly").allSatisfy { $0.style.attributes == .italic })
        #expect(cells(grid, "underlined").allSatisfy { $0.style.attributes == .underline })
        #expect(cells(grid, "dim.").prefix(3).allSatisfy { $0.style.attributes == .dim })
        #expect(cells(grid, "The ").allSatisfy { $0.style.attributes.isEmpty })
    }

    @Test func breaksStartANewRowAndWrappingKeepsTheStyles() {
        let parsed = PageMarkup.parse("First row<br><b>second row is long enough to wrap twice at this width</b>")
        let page = Page(id: "p", kind: .text(lines: [parsed.text, "Next paragraph."]), marks: [parsed.marks(line: 0)!])
        let grid = render(page, width: 40, height: 20)
        let rows = grid.text().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let first = rows.firstIndex(of: "First row")!
        // The break: no blank line before the next row (a new paragraph has one).
        #expect(rows[first + 1].hasPrefix("second row"))
        #expect(cells(grid, "second").allSatisfy { $0.style.attributes == .bold })
        #expect(cells(grid, "twice").allSatisfy { $0.style.attributes == .bold })
        #expect(cells(grid, "First").allSatisfy { $0.style.attributes.isEmpty })
        #expect(cells(grid, "Next").allSatisfy { $0.style.attributes.isEmpty })
    }

    @Test func choicesAndTheTitleAreDrawnWithTheirStyles() {
        let title = PageMarkup.parse("A <b>Storm</b> Tale"), author = PageMarkup.parse("by <i>Someone</i>")
        let titlePage = Page(id: "title", kind: .title(title: title.text, subtitle: author.text),
                             marks: [title.marks(line: 0)!, author.marks(line: 1)!])
        let titleGrid = render(titlePage)
        #expect(cells(titleGrid, "Storm").allSatisfy { $0.style.attributes == .bold && $0.style.role == .title })
        #expect(cells(titleGrid, "A ").allSatisfy { $0.style.attributes.isEmpty && $0.style.role == .title })
        #expect(cells(titleGrid, "Someone").allSatisfy { $0.style.attributes == .italic && $0.style.role == .subtitle })
        #expect(!titleGrid.text().contains("<"))

        let go = PageMarkup.parse("Go <b>on</b>"), run = PageMarkup.parse("<u>Run</u> \u{1B}[31maway")
        let page = Page(id: "choices", kind: .choice(prompt: nil, choices: [Choice(text: go.text, targetBeatId: "a"),
                                                                          Choice(text: run.text, targetBeatId: "b")]),
                        marks: [go.marks(line: 0)!, run.marks(line: 1)!])
        let grid = render(page)
        #expect(grid.text().contains("1. Go on"))
        #expect(cells(grid, "on").allSatisfy { $0.style.attributes == .bold })
        #expect(cells(grid, "Go ").allSatisfy { $0.style.attributes.isEmpty })
        #expect(cells(grid, "1. ").allSatisfy { $0.style.attributes.isEmpty })
        #expect(cells(grid, "Run").allSatisfy { $0.style.attributes == .underline && $0.style.role == .choice })
        // The story's escape sequence is replaced, not sent to the terminal.
        #expect(!grid.text().contains("\u{1B}"))
    }

    @Test func controlCharactersInStyledTextAreStillReplaced() {
        let parsed = PageMarkup.parse("<b>red &#27;[31mtext\u{7}</b>")
        let page = Page(id: "p", kind: .text(lines: [parsed.text]), marks: [parsed.marks(line: 0)!])
        let grid = render(page)
        let all = grid.cells.map(\.text).joined()
        #expect(!all.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(grid.text().contains("red \u{FFFD}text\u{FFFD}"))
        #expect(cells(grid, "text").allSatisfy { $0.style.attributes == .bold })
    }

    @Test func coloursAndAlignmentAreDrawn() throws {
        let coloured = PageMarkup.parse(#"The <span style="color: #e61919">red</span> sea, <b><font color="lime">green</font></b>."#)
        let centred = PageMarkup.parse(#"<div style="text-align: center">Middle</div>"#)
        let right = PageMarkup.parse(#"<p align="right">Signed</p>"#)
        let page = Page(id: "p", kind: .text(lines: [coloured.text, centred.text, right.text, "Left as ever."]),
                        marks: [coloured.marks(line: 0)!, centred.marks(line: 1)!, right.marks(line: 2)!])
        let width = 60
        let grid = render(page, width: width)
        #expect(cells(grid, "red").allSatisfy { $0.style.textColor == 0xE61919 && $0.style.role == .text && $0.style.attributes.isEmpty })
        #expect(cells(grid, "green").allSatisfy { $0.style.textColor == 0x00FF00 && $0.style.attributes == .bold })
        #expect(cells(grid, "The ").allSatisfy { $0.style.textColor == nil })
        // The aligned lines take the text column's whole width: centred in it, and flush right.
        func column(_ word: String) -> Int? {
            for y in 0..<grid.height {
                let row = (0..<grid.width).map { grid[$0, y].text.isEmpty ? " " : grid[$0, y].text }.joined()
                if let range = row.range(of: word) { return row.distance(from: row.startIndex, to: range.lowerBound) }
            }
            return nil
        }
        let left = try #require(column("Left as ever.")), middle = try #require(column("Middle")), signed = try #require(column("Signed"))
        let textWidth = PageLayout.maximumTextWidth < width - 4 ? PageLayout.maximumTextWidth : width - 4
        #expect(signed + "Signed".count == left + textWidth)
        #expect(middle == left + (textWidth - "Middle".count) / 2)
        // Without aligned lines the block is as wide as its widest line (and centred as before).
        let plain = render(Page(id: "p", kind: .text(lines: ["Short.", "Left as ever."])), width: width)
        #expect(plain.text().contains("Short."))
    }

    @Test func aStorysColourIsDrawnOnlyWhereItStaysReadable() throws {
        let paths = [PackagePaths.root.appendingPathComponent("Themes")]
        let dark = try #require(ThemeLibrary.load("default", paths: paths)), paper = try #require(ThemeLibrary.load("paper", paths: paths))
        // The default theme leaves the background to the terminal: dark unless it said otherwise.
        #expect(dark.readableTextColor(0xE61919, role: .text, colors: 256) == 0xE61919)
        #expect(dark.readableTextColor(0x000000, role: .text, colors: 256) == nil)
        #expect(dark.readableTextColor(0x000080, role: .text, colors: 1 << 24) == nil)
        #expect(dark.readableTextColor(0x000000, role: .text, colors: 256, terminalBackground: 0xFFFFFF) == 0x000000)
        #expect(dark.readableTextColor(0xE61919, role: .text, colors: 0) == nil)
        // On paper, Harlowe's yellow fades into the page; black is fine.
        #expect(paper.readableTextColor(0xE5E619, role: .text, colors: 1 << 24) == nil)
        #expect(paper.readableTextColor(0x000000, role: .text, colors: 16) == 0x000000)
        // A theme without colours (mono) draws none of the story's either.
        let mono = try #require(ThemeLibrary.load("mono", paths: paths))
        #expect(mono.readableTextColor(0xE61919, role: .text, colors: 1 << 24) == nil)
        // The selected choice's own background counts, not the page's.
        #expect(dark.readableTextColor(0xF0C060, role: .selected, colors: 1 << 24) == nil)
    }

    /// A partly transparent story colour (Harlowe's `(rgba:)`, CSS's `rgba()`) is drawn as it looks laid on the
    /// background it sits on (`AlphaCompositing.over`), and is then held to the same readability rule.
    @Test func aTransparentColourIsBlendedWithTheBackground() throws {
        let paths = [PackagePaths.root.appendingPathComponent("Themes")]
        let dark = try #require(ThemeLibrary.load("default", paths: paths))
        let halfRed = try #require(TextColor.parse("rgba(230, 25, 25, 0.5)")), halfGold = try #require(TextColor.parse("rgba(255, 200, 0, 0.5)"))
        #expect(dark.readableTextColor(halfGold, role: .text, colors: 1 << 24) == 0x806400)  // on the dark terminal: a dark gold
        #expect(dark.readableTextColor(halfRed, role: .text, colors: 1 << 24, terminalBackground: 0xFFFFFF) == 0xF28C8C)  // on white: pink
        #expect(AlphaCompositing.over(0xE61919, alpha: 0x80, onto: 0xFFFFFF) == 0xF28C8C)
        // Half red on black is 1.8:1: as for any colour under 2:1, the theme's colour is used; so for a nearly
        // transparent one.
        #expect(dark.readableTextColor(halfRed, role: .text, colors: 1 << 24) == nil)
        #expect(dark.readableTextColor(try #require(TextColor.parse("rgba(255, 200, 0, 0.1)")), role: .text, colors: 1 << 24) == nil)
        // On a 256-colour terminal the blend is what is mapped to the nearest colour.
        #expect(dark.readableTextColor(halfGold, role: .text, colors: 256) == 0x806400)
        // A cell keeps the transparency in 16 steps beside its role and attributes.
        var cell = Style(.text, attributes: .italic)
        cell.textColor = halfRed
        #expect(cell.textColor == 0x77E6_1919 && cell.attributes == .italic && cell.role == .text)
        cell.attributes = .bold
        cell.role = .choice
        #expect(cell.textColor == 0x77E6_1919)
        cell.textColor = 0xE61919
        #expect(cell.textColor == 0xE61919)
    }

    @Test func theStyleKeepsItsRoleAndColoursBesideTheAttributes() {
        var style = Style(pictureForeground: .rgb(0x123456), pictureBackground: .palette(7))
        style.attributes = [.bold, .underline]
        #expect(style.pictureForeground == .rgb(0x123456))
        #expect(style.pictureBackground == .palette(7))
        #expect(style.attributes == [.bold, .underline])
        style.pictureBackground = .rgb(0xFFFFFF)
        #expect(style.attributes == [.bold, .underline])
        #expect(Style(.text, attributes: .italic) != Style(.text))
        var text = Style(.choice, attributes: .bold)
        text.textColor = 0xE61919
        #expect(text.textColor == 0xE61919 && text.role == .choice && text.attributes == .bold)
        #expect(Style(pictureForeground: .rgb(0x123456), pictureBackground: nil).textColor == nil)  // a picture's is not a text colour
    }
}

/// The theme a story asks for (`presentation.theme`, ink's `# theme:`) and the reader's own choice.
@Suite struct StoryThemeTests {
    @Test func theStorysThemeUnlessTheReaderChoseOne() {
        #expect(StoryTheme.themeName(requested: nil, remembered: nil, story: .dark) == "night")
        #expect(StoryTheme.themeName(requested: nil, remembered: nil, story: .light) == "paper")
        #expect(StoryTheme.themeName(requested: nil, remembered: nil, story: nil) == "default")
        #expect(StoryTheme.themeName(requested: nil, remembered: "mono", story: .light) == "mono")
        #expect(StoryTheme.themeName(requested: "default", remembered: "mono", story: .dark) == "default")
    }

    @Test func theShippedThemesExist() throws {
        for theme in [StoryTheme.dark, .light] {
            #expect(ThemeLibrary.load(theme.themeName, paths: [PackagePaths.root.appendingPathComponent("Themes")]) != nil)
        }
    }
}
