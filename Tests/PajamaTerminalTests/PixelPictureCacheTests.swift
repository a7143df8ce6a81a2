import PajamaCore
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
