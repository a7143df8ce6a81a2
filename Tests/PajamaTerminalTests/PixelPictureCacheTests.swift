import PajamaModel
import PajamaImage
import Testing
@testable import PajamaTerminal

/// Pictures in pixels go through the same cache as cells: encoded once per box and look, never drafted.
@Suite struct PixelPictureCacheTests {
    let image = StoryImage.bitmap(width: 32, height: 16, rgba: (0..<(32 * 16)).flatMap { [UInt8($0 % 256), 80, 160, 255] })
    let kitty = PictureLook(mode: .truecolor, backdrop: PictureBackdrop(background: 0x101010), pixels: PixelFormat(.kitty, cellWidth: 10, cellHeight: 20))

    @Test func aPixelLookGivesBlankCellsCarryingThePicture() {
        let cells = PictureRenderer.cells(for: image, width: 20, height: 10, look: kitty)
        let pixels = cells.pixels
        #expect(pixels?.pixelProtocol == .kitty)
        #expect(cells.width == pixels?.columns && cells.height == pixels?.rows)
        #expect(cells.cells.allSatisfy { $0.text == " " && $0.foreground == nil && $0.background == nil })
        // Text art stays text.
        let art = PictureRenderer.cells(for: .textArt(lines: ["/\\"]), width: 20, height: 10, look: kitty)
        #expect(art.pixels == nil && art[0, 0].text == "/")
        #expect(!PictureRenderer.hasQuickDraft(PictureLook(mode: .indexed256, pixels: kitty.pixels)))
    }

    /// Pictures in pixels are big (megabytes for kitty): the cache keeps them within its byte limit, the least
    /// recently used going first, while cells cost nothing against it.
    @Test func pixelsAreKeptWithinTheByteLimit() async throws {
        let cache = PictureCache(capacity: 32, pixelByteLimit: 2500, render: { _, width, _, look in
            guard look.pixels != nil else { return PictureCells(width: width, rows: [[PictureCells.Cell(text: "x")]]) }
            return PictureCells(pixels: PixelPicture(pixelProtocol: .kitty, columns: width, rows: 1, pixelWidth: 1, pixelHeight: 1,
                                                     bytes: [UInt8](repeating: 65, count: 1000)))
        })
        let path = try AssetPath(validating: "assets/p.png")
        for width in 1...3 { _ = await cache.cells(for: image, key: PictureCache.Key(path: path, width: width, height: 1, look: kitty)) }
        #expect(await cache.count == 2, "3,000 bytes over a 2,500-byte limit: the oldest went")
        #expect(await cache.cached(PictureCache.Key(path: path, width: 1, height: 1, look: kitty)) == nil)
        #expect(await cache.cached(PictureCache.Key(path: path, width: 3, height: 1, look: kitty)) != nil)
        for width in 1...10 { _ = await cache.cells(for: image, key: PictureCache.Key(path: path, width: width, height: 1, mode: .truecolor)) }
        #expect(await cache.count == 12, "cells cost nothing")
    }

    @Test func encodedOncePerSizeAndLook() async throws {
        let cache = PictureCache()
        let path = try AssetPath(validating: "assets/p.png")
        let key = PictureCache.Key(path: path, width: 20, height: 10, look: kitty)
        let first = await cache.cells(for: image, key: key)
        let again = await cache.cells(for: image, key: key)
        #expect(first == again)
        #expect(await cache.renderCount == 1)
        #expect(await cache.draft(for: image, key: PictureCache.Key(path: path, width: 30, height: 10, look: kitty)) == nil)
        var sixel = kitty
        sixel.pixels = PixelFormat(.sixel, cellWidth: 10, cellHeight: 20)
        let other = await cache.cells(for: image, key: PictureCache.Key(path: path, width: 20, height: 10, look: sixel))
        #expect(other.pixels?.pixelProtocol == .sixel)
        _ = await cache.cells(for: image, key: PictureCache.Key(path: path, width: 24, height: 10, look: kitty))
        #expect(await cache.renderCount == 3)
    }
}
