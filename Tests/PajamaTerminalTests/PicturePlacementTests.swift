import PajamaModel
import PajamaImage
import Testing
@testable import PajamaTerminal

@Suite struct PicturePlacementTests {
    let textPage = Page(id: "p", kind: .text(lines: ["The path was dark.", "Somewhere, a wolf howled.", "Third."]))
    /// Short enough to fit under its picture even at 40x12.
    let shortPage = Page(id: "s", kind: .text(lines: ["The path was dark.", "Third."]))
    let titlePage = Page(id: "t", kind: .title(title: "The Lantern Keeper", subtitle: "A short story for a stormy night"))
    let choicePage = Page(id: "c", kind: .choice(prompt: "Which path?", choices: [
        Choice(text: "Left", targetBeatId: "l"), Choice(text: "Right", targetBeatId: "r"),
    ]))

    func model(_ view: PageView) -> ScreenModel {
        ScreenModel(storyTitle: "Lantern", content: .page(view), position: "beat forest · page 2/3", soundStatus: "sound on")
    }

    /// Cells of "P" the size a 96x48 picture takes in the box the layout gives it.
    func picture(for page: Page, width: Int, height: Int) throws -> PictureCells {
        let box = try #require(PageRenderer.pictureBox(for: model(PageView(page: page, revealedLines: 1)), width: width, height: height))
        let size = ChafaRenderer.fittedSize(pixelWidth: 96, pixelHeight: 48, width: box.width, height: box.height)
        return solid(size.width, size.height)
    }

    func solid(_ width: Int, _ height: Int) -> PictureCells {
        PictureCells(width: width, rows: Array(repeating: Array(repeating: PictureCells.Cell(text: "P", foreground: .palette(196)), count: width), count: height))
    }

    /// Where the picture's cells ended up: (left, top, right, bottom), inclusive.
    func bounds(_ grid: CellGrid, of text: String = "P") -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var found: (Int, Int, Int, Int)?
        for y in 0..<grid.height {
            for x in 0..<grid.width where grid[x, y].text == text && (text != "P" || grid[x, y].style.role == .picture) {
                found = found.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return found.map { (left: $0.0, top: $0.1, right: $0.2, bottom: $0.3) }
    }

    func row(_ grid: CellGrid, containing text: String) -> (y: Int, x: Int)? {
        for y in 0..<grid.height {
            let line = (0..<grid.width).map { grid[$0, y].text.isEmpty ? "" : grid[$0, y].text }.joined()
            if let range = line.range(of: text) { return (y, line.distance(from: line.startIndex, to: range.lowerBound)) }
        }
        return nil
    }

    /// The rightmost non-blank text cell between the two margins, on rows `rows`.
    func textRight(_ grid: CellGrid, rows: ClosedRange<Int>) -> Int {
        rows.flatMap { y in (0..<grid.width).filter { grid[$0, y].text != " " && grid[$0, y].style.role == .text } }.max() ?? 0
    }

    @Test(arguments: [(80, 24), (40, 12), (200, 60)])
    func pictureAndTextFormOneCentredBlock(size: (Int, Int)) throws {
        let (width, height) = size
        let cells = try picture(for: shortPage, width: width, height: height)
        let grid = PageRenderer.render(model(PageView(page: shortPage, revealedLines: 2, picture: cells)), width: width, height: height)
        let p = try #require(bounds(grid))
        // Whole, and inside the page area (two cells of margin, under the title bar, above the status line).
        #expect(p.right - p.left + 1 == cells.width && p.bottom - p.top + 1 == cells.height)
        #expect(p.left >= 2 && p.right < width - 2 && p.top >= 2 && p.bottom < height - 2)
        let first = try #require(row(grid, containing: "The path was dark."))
        let last = try #require(row(grid, containing: "Third."))
        let blockTop = min(p.top, first.y), blockBottom = max(p.bottom, last.y)
        #expect(abs((blockTop - 2) - (height - 3 - blockBottom)) <= 1, "block centred vertically")
        if width >= PageRenderer.sideBySideWidth {
            // Beside: the text starts after the picture, its rows within the picture's.
            #expect(first.x > p.right && first.x - p.right <= 4)
            #expect(first.y >= p.top && last.y <= p.bottom)
            let right = textRight(grid, rows: first.y...last.y)
            #expect(abs((p.left - 2) - (width - 3 - right)) <= 1, "block centred horizontally")
        } else {
            // Above: the picture centred over the text.
            #expect(p.bottom < first.y)
            #expect(abs((p.left - 2) - (width - 3 - p.right)) <= 1)
        }
    }

    @Test func titleSitsBesideThePictureOnWideTerminals() throws {
        let cells = try picture(for: titlePage, width: 100, height: 30)
        let grid = PageRenderer.render(model(PageView(page: titlePage, revealedLines: 1, picture: cells)), width: 100, height: 30)
        let p = try #require(bounds(grid))
        let title = try #require(row(grid, containing: "The Lantern Keeper"))
        let subtitle = try #require(row(grid, containing: "A short story"))
        #expect(title.y >= p.top && subtitle.y <= p.bottom)
        #expect(subtitle.x - p.right == 4)  // the gutter, then the widest line
        #expect(abs((p.top - 2) - (30 - 3 - p.bottom)) <= 1)
    }

    @Test(arguments: [(80, 24), (200, 60)])
    func revealingLinesNeverMovesThePage(size: (Int, Int)) throws {
        for picture in [nil, try self.picture(for: textPage, width: size.0, height: size.1)] {
            let rows = try (1...3).map { revealed in
                let grid = PageRenderer.render(model(PageView(page: textPage, revealedLines: revealed, picture: picture)), width: size.0, height: size.1)
                return try #require(row(grid, containing: "The path was dark."))
            }
            #expect(rows.allSatisfy { $0 == rows[0] })
        }
    }

    @Test func aPictureRenderedForTheOldSizeIsClippedToTheNewBox() throws {
        let box = try #require(PageRenderer.pictureBox(for: model(PageView(page: textPage, revealedLines: 1)), width: 80, height: 24))
        let grid = PageRenderer.render(model(PageView(page: textPage, revealedLines: 3, picture: solid(150, 50))), width: 80, height: 24)
        let p = try #require(bounds(grid))
        #expect(p.right - p.left + 1 == box.width && p.bottom - p.top + 1 == box.height)
        #expect(row(grid, containing: "The path was dark.") != nil)
        #expect(grid.text().contains("sound on"))
    }

    @Test(arguments: [(80, 24), (40, 12), (200, 60)])
    func aPictureThatFailedToLoadShowsAPlaceholder(size: (Int, Int)) throws {
        let grid = PageRenderer.render(model(PageView(page: choicePage, revealedLines: 1, pictureMissing: true)), width: size.0, height: size.1)
        let placeholder = try #require(row(grid, containing: "picture unavailable"))
        let prompt = try #require(row(grid, containing: "Which path?"))
        #expect(grid.text().contains("┌─"))
        #expect(grid[placeholder.x, placeholder.y].style.role == .dim)
        if size.0 >= PageRenderer.sideBySideWidth { #expect(prompt.x > placeholder.x + 19) } else { #expect(prompt.y > placeholder.y + 1) }
        // The selection is still highlighted next to the placeholder.
        let choice = try #require(row(grid, containing: "› 1. Left"))
        #expect(grid[choice.x, choice.y].style.role == .selected)
    }

    @Test func noPictureWhereThereIsNoRoom() {
        // 30x10: the page area is 6 rows high, too low for a picture above the text.
        #expect(PageRenderer.pictureBox(for: model(PageView(page: textPage, revealedLines: 1)), width: 30, height: 10) == nil)
        let grid = PageRenderer.render(model(PageView(page: textPage, revealedLines: 1, picture: solid(10, 3))), width: 30, height: 10)
        #expect(bounds(grid) == nil)
        #expect(grid.text().contains("The path was dark."))
        let loading = ScreenModel(storyTitle: "Lantern", content: .loading("Loading..."))
        #expect(PageRenderer.pictureBox(for: loading, width: 80, height: 24) == nil)
    }

    @Test func tinySizesWithPicturesNeverCrash() {
        let art = solid(30, 8)
        for w in 0...40 {
            for h in 0...14 {
                for view in [PageView(page: titlePage, revealedLines: 1, picture: art), PageView(page: choicePage, revealedLines: 1, pictureMissing: true)] {
                    let grid = PageRenderer.render(model(view), width: w, height: h)
                    #expect(grid.width == w && grid.height == h)
                    if let box = PageRenderer.pictureBox(for: model(view), width: w, height: h) {
                        #expect(box.width > 0 && box.height > 0 && box.width <= w && box.height <= h)
                    }
                }
            }
        }
    }
}
