import PajamaModel
import PajamaImage
import Testing
@testable import PajamaTerminal

/// What is written around each frame to keep a picture in pixels in step with the cells: placed at its cell
/// after the frame, taken away (kitty: by id; sixel: its rows' cells sent again) when the page changes, an
/// overlay covers it, the terminal is cleared, or the screen closes.
@Suite struct PixelLayerTests {
    func picture(_ kind: PixelProtocol, _ tag: String = "a", id: UInt32 = 0) -> PixelPicture {
        PixelPicture(pixelProtocol: kind, columns: 4, rows: 3, pixelWidth: 40, pixelHeight: 60, bytes: Array("<\(kind.rawValue) \(tag)>".utf8),
                     kittyImageID: kind == .kitty ? (id == 0 ? UInt32(tag.unicodeScalars.first!.value) : id) : 0)
    }

    func placed(_ picture: PixelPicture, x: Int = 5, y: Int = 2) -> [UInt8] {
        let drawn = picture.pixelProtocol == .kitty ? KittyGraphics.place(id: picture.kittyImageID, columns: 4, rows: 3) : picture.bytes
        return Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H".utf8) + drawn + Array("\u{1B}8".utf8)
    }

    @Test func kittyIsSentOncePlacedByIdAndItsPlacementDeleted() {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(.kitty), x: 5, y: 2)
        #expect(layer.plan(next: a, repaint: false, changes: ChangedCells(rows: 0...10, columns: 0...79)) == .init(redraw: nil, bytes: a.picture.bytes + placed(a.picture), sendsData: true))
        #expect(layer.shown == a)
        // The same picture in the next frame (text changed around it): nothing to send.
        #expect(layer.plan(next: a, repaint: false, changes: ChangedCells(rows: 2...4, columns: 0...79)) == .init(redraw: nil, bytes: []))
        // Another page's picture: the old one's placement deleted (its data kept), the new one sent and placed.
        let b = PixelPlacement(picture: picture(.kitty, "b"), x: 1, y: 1)
        let deleteA = KittyGraphics.deletePlacements(id: a.picture.kittyImageID), deleteB = KittyGraphics.deletePlacements(id: b.picture.kittyImageID)
        #expect(layer.plan(next: b, repaint: false, changes: .none) == .init(redraw: nil, bytes: deleteA + b.picture.bytes + placed(b.picture, x: 1, y: 1), sendsData: true))
        // An overlay (no placement in the frame): its placement deleted.
        #expect(layer.plan(next: nil, repaint: false, changes: .none) == .init(redraw: nil, bytes: deleteB))
        #expect(layer.shown == nil)
        #expect(layer.plan(next: nil, repaint: false, changes: .none).bytes.isEmpty)
        // Back to the first page: placed by id, nothing sent.
        #expect(layer.plan(next: a, repaint: false, changes: .none) == .init(redraw: nil, bytes: placed(a.picture)))
        // The screen closes: every picture the terminal holds is freed.
        #expect(layer.close() == KittyGraphics.free(id: b.picture.kittyImageID) + KittyGraphics.free(id: a.picture.kittyImageID))
        #expect(layer.close().isEmpty)
    }

    /// Turning pages between two pictures sends each picture's data once; after that a turn costs a delete
    /// and a placement (tens of bytes, where the whole picture was sent each time before).
    @Test func turnsBetweenTwoPicturesSendEachOnce() {
        var layer = PixelLayer()
        let big = { (tag: String) in
            PixelPicture(pixelProtocol: .kitty, columns: 4, rows: 3, pixelWidth: 40, pixelHeight: 60, bytes: [UInt8](repeating: 65, count: 100_000),
                         kittyImageID: UInt32(tag.unicodeScalars.first!.value))
        }
        let pages = [PixelPlacement(picture: big("a"), x: 0, y: 0), PixelPlacement(picture: big("b"), x: 0, y: 0)]
        let written = (0..<40).map { layer.plan(next: pages[$0 % 2], repaint: false, changes: ChangedCells(rows: 0...20, columns: 0...79)).bytes.count }
        #expect(written[0] > 100_000 && written[1] > 100_000)
        #expect(written.dropFirst(2).allSatisfy { $0 < 100 }, "\(written)")
    }

    /// The terminal keeps the last `kittyImagesKept` pictures; an older one is freed when one more is sent,
    /// and sent again when it comes back.
    @Test func theOldestKittyPictureIsFreed() {
        var layer = PixelLayer()
        let count = PixelLayer.kittyImagesKept + 1
        let pictures = (1...count).map { PixelPlacement(picture: picture(.kitty, "p\($0)", id: UInt32($0)), x: 0, y: 0) }
        for placement in pictures.dropLast() { #expect(!layer.plan(next: placement, repaint: false, changes: .none).bytes.isEmpty) }
        let last = layer.plan(next: pictures[count - 1], repaint: false, changes: .none)
        let freeFirst = KittyGraphics.free(id: 1)
        #expect(last.bytes.firstRange(of: freeFirst) != nil, "the first picture freed")
        let again = layer.plan(next: pictures[0], repaint: false, changes: .none)
        #expect(again.sendsData && again.bytes.firstRange(of: pictures[0].picture.bytes) != nil, "sent again")
        #expect(again.bytes.firstRange(of: KittyGraphics.free(id: 2)) != nil, "the next oldest freed")
    }

    @Test func sixelGoesByRedrawingItsRowsAndComesBackWhenItsRowsChange() {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(.sixel), x: 5, y: 2)
        #expect(layer.plan(next: a, repaint: false, changes: .none).bytes == placed(a.picture))
        // Cells changed on other rows only: nothing.
        #expect(layer.plan(next: a, repaint: false, changes: ChangedCells(rows: 6...9, columns: 0...79)) == .init(redraw: nil, bytes: []))
        // Cells changed on its rows (ncurses may clear to the end of a line through it): sent again.
        #expect(layer.plan(next: a, repaint: false, changes: ChangedCells(rows: 4...7, columns: 0...79)) == .init(redraw: nil, bytes: placed(a.picture), sendsData: true))
        // The page changes: its rows are sent again in full, the new picture drawn after.
        let b = PixelPlacement(picture: picture(.sixel, "b"), x: 0, y: 8)
        #expect(layer.plan(next: b, repaint: false, changes: .none) == .init(redraw: 2..<5, bytes: placed(b.picture, x: 0, y: 8), sendsData: true))
        // An overlay: only the rows.
        #expect(layer.plan(next: nil, repaint: false, changes: .none) == .init(redraw: 8..<11, bytes: []))
        #expect(layer.close().isEmpty, "sixel pixels go with the screen")
    }

    /// Text beside a sixel picture, right of it (a wide page reveals its lines there), changes without it
    /// being sent again; a change on its rows left of its right edge, or a change ending just left of that
    /// edge on another row (the cursor may be moved right over its last cells by rewriting them), sends it again.
    @Test func sixelStaysWhenOnlyTextBesideItChanges() {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(.sixel), x: 5, y: 2)  // columns 5..<9, rows 2..<5
        _ = layer.plan(next: a, repaint: false, changes: .none)
        var beside = ChangedCells(rows: 24)
        for x in 12...40 { beside.add(x: x, y: 3) }
        beside.add(x: 70, y: 0)  // the title bar, far from it
        for x in 0...79 { beside.add(x: x, y: 23) }  // the status line
        #expect(layer.plan(next: a, repaint: false, changes: beside) == .init(redraw: nil, bytes: []))
        for change in [(x: 8, y: 4), (x: 0, y: 2)] {
            var over = beside
            over.add(x: change.x, y: change.y)
            #expect(layer.plan(next: a, repaint: false, changes: over).bytes == placed(a.picture), "\(change)")
        }
        var nearItsEdge = beside
        nearItsEdge.add(x: 3, y: 1)  // a change ending 6 columns left of its right edge, on the row above it
        #expect(layer.plan(next: a, repaint: false, changes: nearItsEdge).bytes == placed(a.picture))
        var farFromIt = beside
        for x in 20...79 { farFromIt.add(x: x, y: 1) }  // right of it on the row above
        #expect(!farFromIt.mayCover(a))
        var belowIt = ChangedCells(rows: 24)
        for x in 12...40 { belowIt.add(x: x, y: 3) }
        belowIt.add(x: 3, y: 20)
        for x in 0...2 { belowIt.add(x: x, y: 0) }  // far left of its edge on a row above
        #expect(!belowIt.mayCover(a), "rows below it are sent after its rows; the cursor leaves row 0 too far left to rewrite its cells")
        var rowsElsewhere = ChangedCells(rows: 24)
        for x in 0...79 { rowsElsewhere.add(x: x, y: 10) }
        #expect(!rowsElsewhere.mayCover(a), "no change on its rows: nothing can reach it")
    }

    /// A frame that clears the terminal (a resize, a repaint) takes every picture away: it is sent again.
    @Test(arguments: [PixelProtocol.sixel, .kitty])
    func aRepaintSendsItAgain(kind: PixelProtocol) {
        var layer = PixelLayer()
        let a = PixelPlacement(picture: picture(kind), x: 5, y: 2)
        _ = layer.plan(next: a, repaint: false, changes: .none)
        let plan = layer.plan(next: a, repaint: true, changes: .none)
        #expect(plan.redraw == nil)
        let delete = kind == .kitty ? KittyGraphics.deletePlacements(id: a.picture.kittyImageID) : []
        let data = kind == .kitty ? a.picture.bytes : []  // a cleared terminal may have dropped a kitty picture
        #expect(plan.bytes == delete + data + placed(a.picture))
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
