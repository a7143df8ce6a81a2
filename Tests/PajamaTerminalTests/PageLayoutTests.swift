import PajamaModel
import PajamaReading
import PajamaImage
import Testing
@testable import PajamaTerminal

@Suite struct PageLayoutTests {
    let textPage = Page(id: "p", kind: .text(lines: ["The path was dark.", "Somewhere, a wolf howled.", "Third."]))
    let choicePage = Page(id: "c", kind: .choice(prompt: "Which path?", choices: [
        Choice(text: "Left", targetBeatId: "l"), Choice(text: "Right", targetBeatId: "r"),
    ]))

    func model(_ content: ScreenModel.Content) -> ScreenModel {
        ScreenModel(storyTitle: "Lantern", content: content, position: "beat forest · page 2/3", soundStatus: "sound on")
    }

    @Test(arguments: [(80, 24), (40, 12), (200, 60)])
    func textPageRevealsOnlyRevealedLines(size: (Int, Int)) {
        let grid = PageRenderer.render(model(.page(PageView(page: textPage, revealedLines: 2))), width: size.0, height: size.1)
        let text = grid.text()
        #expect(text.contains("The path was dark."))
        #expect(text.contains("Somewhere, a wolf"))
        #expect(!text.contains("Third."))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == size.1)
        #expect(text.contains("Lantern"))
        #expect(text.contains("sound on"))
    }

    @Test func choicePageNumbersAndHighlightsTheSelection() {
        let grid = PageRenderer.render(model(.page(PageView(page: choicePage, revealedLines: 1, selectedChoice: 1))), width: 80, height: 24)
        let text = grid.text()
        #expect(text.contains("Which path?"))
        #expect(text.contains("  1. Left"))
        #expect(text.contains("› 2. Right"))
        let row = (0..<24).first { y in (0..<80).map { grid[$0, y].text }.joined().contains("2. Right") }!
        let start = (0..<80).first { grid[$0, row].text == "›" }!
        #expect(grid[start, row].style.role == .selected)
    }

    @Test func titlePageIsCentred() {
        let page = Page(id: "t", kind: .title(title: "Into the Woods", subtitle: "Chapter two"))
        let lines = PageRenderer.render(model(.page(PageView(page: page, revealedLines: 1))), width: 80, height: 24).text()
            .split(separator: "\n", omittingEmptySubsequences: false)
        let titleLine = lines.first { $0.contains("Into the Woods") }!
        let indent = titleLine.prefix { $0 == " " }.count
        #expect(abs(indent - (80 - 14) / 2) <= 1)
    }

    @Test func statesAndOverlays() {
        #expect(PageRenderer.render(model(.loading("Loading...")), width: 80, height: 24).text().contains("Loading..."))
        let error = PageRenderer.render(model(.error(message: "assets/x.png is missing.", canSkip: true)), width: 80, height: 24).text()
        #expect(error.contains("assets/x.png is missing."))
        #expect(error.contains("s skip"))
        var help = model(.page(PageView(page: textPage, revealedLines: 1)))
        help.showHelp = true
        #expect(PageRenderer.render(help, width: 80, height: 24).text().contains("take that choice"))
        let end = PageRenderer.render(model(.finished(PageView(page: textPage, revealedLines: 3), EndSummary(pagesRead: 1, choicesMade: 0, endingsFound: 1))), width: 80, height: 24).text()
        #expect(end.contains("The End"))
    }

    @Test func storyTextCannotReachTheTerminalAsControlSequences() {
        let evil = Page(id: "e", kind: .text(lines: ["hi\u{1b}[2J\u{1b}]0;pwned\u{07}there\u{9b}1m"]))
        let grid = PageRenderer.render(model(.page(PageView(page: evil, revealedLines: 1))), width: 80, height: 24)
        for cell in grid.cells {
            #expect(!cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }

    @Test func tinySizesNeverCrash() {
        for w in 0...22 {
            for h in 0...8 {
                let grid = PageRenderer.render(model(.page(PageView(page: choicePage, revealedLines: 1))), width: w, height: h)
                #expect(grid.width == w && grid.height == h)
            }
        }
        #expect(PageRenderer.render(model(.blank), width: 19, height: 10).text().contains("terminal"))
    }

    @Test func picturesGoAboveOnNarrowAndBesideOnWide() {
        let art = PictureRenderer.cells(for: .textArt(lines: ["/\\", "||"]), width: 10, height: 10, mode: .indexed256)
        let view = PageView(page: textPage, revealedLines: 1, picture: art)
        let narrow = PageRenderer.render(model(.page(view)), width: 80, height: 24).text().split(separator: "\n")
        let artRow = narrow.firstIndex { $0.contains("/\\") }!
        let textRow = narrow.firstIndex { $0.contains("The path") }!
        #expect(artRow < textRow)
        let wide = PageRenderer.render(model(.page(view)), width: 200, height: 60).text().split(separator: "\n")
        let wideArt = wide.first { $0.contains("/\\") }!
        #expect(!wideArt.contains("The path") || wide.firstIndex { $0.contains("The path") }! != wide.firstIndex { $0.contains("/\\") }!)
    }
}
