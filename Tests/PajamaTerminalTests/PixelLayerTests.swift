import PajamaCore
import PajamaImage
import Testing
@testable import PajamaTerminal

/// What is written around each frame to keep a picture in pixels in step with the cells: placed at its cell
/// after the frame, taken away (kitty: by id; sixel: its rows' cells sent again) when the page changes, an
/// overlay covers it, the terminal is cleared, or the screen closes.
@Suite struct PixelLayerTests {
    func picture(_ kind: PixelProtocol, _ tag: String = "a") -> PixelPicture {
        PixelPicture(pixelProtocol: kind, columns: 4, rows: 3, pixelWidth: 40, pixelHeight: 60, bytes: Array("<\(kind.rawValue) \(tag)>".utf8))
    }

    func placed(_ picture: PixelPicture, x: Int = 5, y: Int = 2) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H".utf8) + picture.bytes + Array("\u{1B}8".utf8)
    }

    @Test func kittyIsPlacedOnceDeletedByIdAndReplaced() {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(.kitty), x: 5, y: 2)
        #expect(layer.plan(next: a, repaint: false, changedRows: 0...10) == .init(redraw: nil, bytes: placed(a.picture)))
        #expect(layer.shown == a)
        // The same picture in the next frame (text changed around it): nothing to send.
        #expect(layer.plan(next: a, repaint: false, changedRows: 2...4) == .init(redraw: nil, bytes: []))
        // Another page's picture: the old one deleted by id, the new one placed.
        let b = PixelPlacement(picture: picture(.kitty, "b"), x: 1, y: 1)
        let delete = Array("\u{1B}_Ga=d,d=I,i=\(PixelPicture.kittyImageID),q=2\u{1B}\\".utf8)
        #expect(layer.plan(next: b, repaint: false, changedRows: nil) == .init(redraw: nil, bytes: delete + placed(b.picture, x: 1, y: 1)))
        // An overlay (no placement in the frame): deleted.
        #expect(layer.plan(next: nil, repaint: false, changedRows: nil) == .init(redraw: nil, bytes: delete))
        #expect(layer.shown == nil)
        #expect(layer.plan(next: nil, repaint: false, changedRows: nil).bytes.isEmpty)
        // Back, then the screen closes: deleted.
        _ = layer.plan(next: b, repaint: false, changedRows: nil)
        #expect(layer.close() == delete)
        #expect(layer.close().isEmpty)
    }

    @Test func sixelGoesByRedrawingItsRowsAndComesBackWhenItsRowsChange() {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(.sixel), x: 5, y: 2)
        #expect(layer.plan(next: a, repaint: false, changedRows: nil).bytes == placed(a.picture))
        // Cells changed on other rows only: nothing.
        #expect(layer.plan(next: a, repaint: false, changedRows: 6...9) == .init(redraw: nil, bytes: []))
        // Cells changed on its rows (ncurses may clear to the end of a line through it): sent again.
        #expect(layer.plan(next: a, repaint: false, changedRows: 4...7) == .init(redraw: nil, bytes: placed(a.picture)))
        // The page changes: its rows are sent again in full, the new picture drawn after.
        let b = PixelPlacement(picture: picture(.sixel, "b"), x: 0, y: 8)
        #expect(layer.plan(next: b, repaint: false, changedRows: nil) == .init(redraw: 2..<5, bytes: placed(b.picture, x: 0, y: 8)))
        // An overlay: only the rows.
        #expect(layer.plan(next: nil, repaint: false, changedRows: nil) == .init(redraw: 8..<11, bytes: []))
        #expect(layer.close().isEmpty, "sixel pixels go with the screen")
    }

    /// A frame that clears the terminal (a resize, a repaint) takes every picture away: it is sent again.
    @Test(arguments: [PixelProtocol.sixel, .kitty])
    func aRepaintSendsItAgain(kind: PixelProtocol) {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(kind), x: 5, y: 2)
        _ = layer.plan(next: a, repaint: false, changedRows: nil)
        let plan = layer.plan(next: a, repaint: true, changedRows: nil)
        #expect(plan.redraw == nil)
        #expect(plan.bytes == (kind == .kitty ? PixelPicture.kittyDelete : []) + placed(a.picture))
    }

    /// The layout places a picture in pixels where its cells go, and not under an overlay.
    @Test func theFramePlacesPixelsAtThePictureBoxAndNotUnderAnOverlay() throws {
        let page = Page(id: "p", kind: .text(lines: ["The path was dark."]))
        var model = ScreenModel(storyTitle: "Lantern", content: .page(PageView(page: page, revealedLines: 1)), position: "p", soundStatus: "")
        let box = try #require(PageRenderer.pictureBox(for: model, width: 80, height: 24))
        let size = PixelEncoder.fittedSize(pixelWidth: 64, pixelHeight: 32, width: box.width, height: box.height, format: PixelFormat(.kitty, cellWidth: 10, cellHeight: 20))
        let pixels = PixelPicture(pixelProtocol: .kitty, columns: size.columns, rows: size.rows, pixelWidth: 0, pixelHeight: 0, bytes: [1])
        model.content = .page(PageView(page: page, revealedLines: 1, picture: PictureCells(pixels: pixels)))
        let grid = PageRenderer.render(model, width: 80, height: 24)
        let placement = try #require(grid.pixels)
        #expect(placement.picture == pixels)
        for y in placement.rows {
            for x in placement.x..<(placement.x + pixels.columns) { #expect(grid[x, y].text == " ") }
        }
        #expect(grid.text().contains("The path was dark."))
        model.showHelp = true
        #expect(PageRenderer.render(model, width: 80, height: 24).pixels == nil)
        // Cells of a bigger box (shown while this size renders) are clipped: no pixels, which would spill out.
        model.showHelp = false
        let big = PixelPicture(pixelProtocol: .kitty, columns: 200, rows: 60, pixelWidth: 0, pixelHeight: 0, bytes: [1])
        model.content = .page(PageView(page: page, revealedLines: 1, picture: PictureCells(pixels: big)))
        #expect(PageRenderer.render(model, width: 80, height: 24).pixels == nil)
    }
}
