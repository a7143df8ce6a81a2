import PajamaModel
import PajamaImage
import Testing
@testable import PajamaTerminal

@Suite struct ChafaRendererTests {
    /// A 64x32 bitmap: red on the left half, blue on the right.
    static let redBlue: StoryImage = {
        let width = 64, height = 32
        var rgba: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { rgba += x < width / 2 ? [230, 20, 20, 255] : [20, 20, 230, 255] }
        }
        return .bitmap(width: width, height: height, rgba: rgba)
    }()

    /// The colour a viewer sees in a cell: the background behind a space, the foreground of a full block,
    /// otherwise the mean of the two.
    static func seen(_ cell: PictureCells.Cell) -> (r: Int, g: Int, b: Int)? {
        func rgb(_ color: PictureColor?) -> UInt32? {
            switch color {
            case .rgb(let value): value
            case .palette(let index): ColorMapper.rgb(ofPaletteIndex: index)
            case nil: nil
            }
        }
        let fg = rgb(cell.foreground), bg = rgb(cell.background)
        let colors: [UInt32] = cell.text == " " ? [bg].compactMap { $0 } : cell.text == "█" ? [fg].compactMap { $0 } : [fg, bg].compactMap { $0 }
        guard !colors.isEmpty else { return nil }
        let n = colors.count
        return (colors.reduce(0) { $0 + Int($1 >> 16 & 0xFF) } / n, colors.reduce(0) { $0 + Int($1 >> 8 & 0xFF) } / n,
                colors.reduce(0) { $0 + Int($1 & 0xFF) } / n)
    }

    @Test(arguments: [PictureColorMode.truecolor, .indexed256, .indexed16])
    func redLeftBlueRight(mode: PictureColorMode) throws {
        let cells = PictureRenderer.cells(for: Self.redBlue, width: 40, height: 20, mode: mode)
        #expect(cells.width == 40 && cells.height == 10)  // 64x32 pixels at two pixels' height per cell width
        for y in 0..<cells.height {
            for x in 0..<cells.width / 3 {
                let left = try #require(Self.seen(cells[x, y]))
                #expect(left.r > 128 && left.b < 100, "cell \(x),\(y) should be red: \(left)")
                let right = try #require(Self.seen(cells[cells.width - 1 - x, y]))
                #expect(right.b > 128 && right.r < 100, "cell \(cells.width - 1 - x),\(y) should be blue: \(right)")
            }
        }
        if mode == .truecolor {
            #expect(cells.cells.allSatisfy { if case .palette = $0.foreground { false } else { true } })
        }
        if mode == .indexed256 {
            #expect(cells.cells.allSatisfy { cell in
                [cell.foreground, cell.background].allSatisfy { if case .palette(let i)? = $0 { (16..<256).contains(i) } else { $0 == nil } }
            })
        }
    }

    @Test func eightColoursUseOnlyTheEightAnsiColours() {
        let cells = PictureRenderer.cells(for: Self.redBlue, width: 20, height: 10, mode: .indexed8)
        #expect(cells.height > 0)
        for cell in cells.cells {
            for color in [cell.foreground, cell.background] {
                if case .palette(let i)? = color { #expect((0..<8).contains(i)) } else { #expect(color == nil) }
            }
        }
        #expect(cells.cells.contains { $0.foreground == .palette(1) || $0.background == .palette(1) })
        #expect(cells.cells.contains { $0.foreground == .palette(4) || $0.background == .palette(4) })
    }

    @Test func noColourGivesPrintableAsciiAndNoColours() {
        // A gradient, so the symbols are not all blank.
        var rgba: [UInt8] = []
        for y in 0..<32 { for x in 0..<64 { rgba += [UInt8(x * 4), UInt8(y * 8), 128, 255] } }
        let cells = PictureRenderer.cells(for: .bitmap(width: 64, height: 32, rgba: rgba), width: 30, height: 10, mode: .none)
        #expect(cells.width > 0 && cells.height > 0)
        #expect(cells.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(cells.cells.allSatisfy { $0.text.unicodeScalars.count == 1 && (0x20...0x7E).contains($0.text.unicodeScalars.first!.value) })
        #expect(cells.cells.contains { $0.text != " " })
    }

    @Test func fitsTheBoxKeepingAspect() {
        // 96x48 pixels are 4:1 in cells (cells are twice as tall as wide).
        let wide = ChafaRenderer.fittedSize(pixelWidth: 96, pixelHeight: 48, width: 80, height: 56)
        #expect(wide.width == 80 && abs(wide.height - 20) <= 1)
        let tall = ChafaRenderer.fittedSize(pixelWidth: 96, pixelHeight: 48, width: 76, height: 8)
        #expect(tall.height == 8 && abs(tall.width - 32) <= 1)
        #expect(ChafaRenderer.fittedSize(pixelWidth: 96, pixelHeight: 48, width: 1, height: 1) == (1, 1))
        #expect(ChafaRenderer.fittedSize(pixelWidth: 96, pixelHeight: 48, width: 0, height: 5) == (0, 0))
        for (w, h) in [(1, 1), (3, 1), (1, 7), (200, 60)] {
            let cells = PictureRenderer.cells(for: Self.redBlue, width: w, height: h, mode: .indexed256)
            #expect(cells.width <= w && cells.height <= h && cells.cells.count == cells.width * cells.height)
        }
    }

    @Test func brokenBitmapsGiveNoCells() {
        #expect(ChafaRenderer.render(pixelWidth: 10, pixelHeight: 10, rgba: [1, 2, 3], width: 10, height: 10, mode: .truecolor) == .empty)
        #expect(ChafaRenderer.render(pixelWidth: 0, pixelHeight: 10, rgba: [], width: 10, height: 10, mode: .truecolor) == .empty)
    }

    @Test func textArtIsDrawnAsIsSanitisedAndClipped() {
        let art = StoryImage.textArt(lines: ["/\\_/\\", "( o.o )\u{1b}[2J", "猫猫猫", "> ^ <", "cut"])
        let cells = PictureRenderer.cells(for: art, width: 6, height: 4, mode: .truecolor)
        #expect(cells.height == 4 && cells.width == 6)
        let rows = (0..<cells.height).map { y in (0..<cells.width).map { cells[$0, y].text }.joined() }
        #expect(rows[0] == "/\\_/\\ ")
        #expect(rows[1] == "( o.o ")
        #expect(rows[2] == "猫猫猫")
        #expect(cells.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(cells.cells.allSatisfy { !$0.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } })
        // A wide character that does not fit is left out, never half drawn.
        let narrow = PictureRenderer.cells(for: art, width: 5, height: 3, mode: .truecolor)
        #expect((0..<narrow.width).map { narrow[$0, 2].text }.joined() == "猫猫 ")
    }

    @Test func modeFollowsTheTerminalsColours() {
        #expect(PictureColorMode(terminalColors: 1 << 24) == .truecolor)
        #expect(PictureColorMode(terminalColors: 256) == .indexed256)
        #expect(PictureColorMode(terminalColors: 88) == .indexed16)
        #expect(PictureColorMode(terminalColors: 16) == .indexed16)
        #expect(PictureColorMode(terminalColors: 8) == .indexed8)
        #expect(PictureColorMode(terminalColors: 2) == .none)
        #expect(PictureColorMode(terminalColors: 0) == .none)
    }

    @Test func pictureColoursMapToEveryDepth() {
        #expect(ColorMapper(colors: 256).number(.palette(196)) == 196)
        #expect(ColorMapper(colors: 1 << 24).number(.palette(196)) == 0xFF0000)
        #expect(ColorMapper(colors: 16).number(.palette(9)) == 9)
        #expect(ColorMapper(colors: 8).number(.palette(196)) == 1)  // bright red from the cube, down to red
        #expect(ColorMapper(colors: 8).number(.palette(21)) == 4)  // blue
        #expect(ColorMapper(colors: 16).number(.rgb(0xFF0000)) == 9)
        #expect(ColorMapper(colors: 8).number(.rgb(0x101010)) == 0)
        #expect(ColorMapper(colors: 0).number(.palette(3)) == -1)
        #expect(ColorMapper(colors: 0).number(.rgb(0xFFFFFF)) == -1)
        #expect(ColorMapper(colors: 256).number(.rgb(0x0000FF)) == 21)
    }
}
