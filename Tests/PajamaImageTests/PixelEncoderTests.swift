import PajamaTestSupport
import Testing
@testable import PajamaImage

/// Pictures in pixels: sized to the box with their aspect kept, on the backdrop, and read back from the
/// sixel or kitty bytes (decoders in PajamaTestSupport) as the picture they were made from.
@Suite struct PixelEncoderTests {
    /// A 64x40 picture of smooth gradients and a hard edge: red rises left to right, green top to bottom, the
    /// right quarter blue.
    static let width = 64, height = 40
    static let rgba: [UInt8] = (0..<(width * height)).flatMap { index -> [UInt8] in
        let x = index % width, y = index / width
        return x >= 48 ? [20, 40, 220, 255] : [UInt8(x * 4), UInt8(y * 6), 90, 255]
    }
    static let format = PixelFormat(.sixel, cellWidth: 10, cellHeight: 20)

    @Test func theBoxIsFilledInOneDirectionAspectKept() {
        // 64x40 in 8x4 cells of 10x20 (80x80 pixels): scaled 1.25 to 80x50, 8 columns by 3 rows.
        let size = PixelEncoder.fittedSize(pixelWidth: 64, pixelHeight: 40, width: 8, height: 4, format: Self.format)
        #expect(size.columns == 8 && size.rows == 3 && size.pixelWidth == 80 && size.pixelHeight == 50)
        // A tall picture in a wide box: the height fills it.
        let tall = PixelEncoder.fittedSize(pixelWidth: 100, pixelHeight: 400, width: 200, height: 60, format: Self.format)
        #expect(tall.rows == 60 && tall.pixelHeight == 1200 && tall.pixelWidth == 300 && tall.columns == 30)
        // The terminal's largest sixel picture bounds it.
        let capped = PixelEncoder.fittedSize(pixelWidth: 100, pixelHeight: 400, width: 200, height: 60,
                                             format: PixelFormat(.sixel, cellWidth: 10, cellHeight: 20, maximumWidth: 1000, maximumHeight: 1000))
        #expect(capped.pixelHeight == 1000 && capped.pixelWidth == 250 && capped.rows == 50)
        #expect(PixelEncoder.fittedSize(pixelWidth: 64, pixelHeight: 40, width: 0, height: 4, format: Self.format).columns == 0)
    }

    /// The sixel decodes to the picture scaled to its place in the box (PSNR over 24 dB), the margins the
    /// backdrop's colour.
    @Test func sixelDecodesBackToThePicture() throws {
        let picture = try #require(PixelEncoder.encode(pixelWidth: Self.width, pixelHeight: Self.height, rgba: Self.rgba, width: 8, height: 4,
                                                       format: Self.format, backdrop: PictureBackdrop(background: 0x336699)))
        #expect(picture.pixelProtocol == .sixel && picture.columns == 8 && picture.rows == 3)
        #expect(picture.bytes.starts(with: Array("\u{1B}P".utf8)) && picture.bytes.suffix(2) == Array("\u{1B}\\".utf8))
        #expect(picture.bytes.allSatisfy { $0 == 0x1B || (0x20...0x7E).contains($0) }, "printable ASCII in one escape sequence")
        let decoded = try SixelDecoder.decode(picture.bytes)
        #expect(decoded.width == 80)
        #expect(decoded.height >= 54 && decoded.height <= 60)  // sixel bands of 6 rows
        // 80x60 pixels: the 80x50 picture centred, 5 rows of margin above and below.
        let expected = RGBImage.scaled(rgba: Self.rgba, width: Self.width, height: Self.height, to: 80, 50)
        let psnr = decoded.crop(x: 0, y: 5, width: 80, height: 48).psnr(expected.crop(x: 0, y: 0, width: 80, height: 48))
        #expect(psnr > 24, "PSNR \(psnr) dB")
        let margin = decoded.pixel(40, 1)
        #expect(abs(Int(margin.r) - 0x33) <= 8 && abs(Int(margin.g) - 0x66) <= 8 && abs(Int(margin.b) - 0x99) <= 8, "margin \(margin)")
        // Another picture is far from it: the comparison can fail.
        let other = RGBImage.scaled(rgba: Self.rgba.reversed(), width: Self.width, height: Self.height, to: 80, 50)
        #expect(decoded.crop(x: 0, y: 5, width: 80, height: 48).psnr(other.crop(x: 0, y: 0, width: 80, height: 48)) < 15)
    }

    /// Kitty: the exact pixels, compressed, stored (not shown) under the picture's own image id, no reply; each
    /// picture rendered gets another id.
    @Test func kittyCarriesThePicture() throws {
        let format = PixelFormat(.kitty, cellWidth: 10, cellHeight: 20)
        let picture = try #require(PixelEncoder.encode(pixelWidth: Self.width, pixelHeight: Self.height, rgba: Self.rgba, width: 8, height: 4,
                                                       format: format, backdrop: nil))
        let decoded = try KittyGraphicsDecoder.decode(picture.bytes)
        #expect(picture.kittyImageID != 0)
        #expect(decoded.keys["a"] == "t" && decoded.keys["i"] == "\(picture.kittyImageID)" && decoded.keys["q"] == "2" && decoded.keys["o"] == "z")
        #expect(picture.columns == 8 && picture.rows == 3)
        #expect(decoded.image.width == 80 && decoded.image.height == 60)
        #expect(picture.bytes.count < 80 * 60 * 4, "compressed: \(picture.bytes.count) bytes")
        let again = try #require(PixelEncoder.encode(pixelWidth: Self.width, pixelHeight: Self.height, rgba: Self.rgba, width: 8, height: 4,
                                                     format: format, backdrop: nil))
        #expect(again.kittyImageID != picture.kittyImageID)
        let expected = RGBImage.scaled(rgba: Self.rgba, width: Self.width, height: Self.height, to: 80, 50)
        let psnr = decoded.image.crop(x: 0, y: 5, width: 80, height: 50).psnr(expected)
        #expect(psnr > 28, "PSNR \(psnr) dB")
        #expect(decoded.image.pixel(40, 1) == (0, 0, 0), "no backdrop: black margins")
    }

    /// Transparent pixels are laid on the backdrop, as in cells.
    @Test func transparencyIsOnTheBackground() throws {
        let clear = [UInt8](repeating: 0, count: 16 * 16 * 4)
        let picture = try #require(PixelEncoder.encode(pixelWidth: 16, pixelHeight: 16, rgba: clear, width: 4, height: 2,
                                                       format: PixelFormat(.kitty, cellWidth: 8, cellHeight: 16), backdrop: PictureBackdrop(background: 0x204060)))
        let image = try KittyGraphicsDecoder.decode(picture.bytes).image
        #expect(image.pixel(image.width / 2, image.height / 2) == (0x20, 0x40, 0x60))
    }

    @Test func nothingForAnEmptyOrInconsistentBitmap() {
        #expect(PixelEncoder.encode(pixelWidth: 4, pixelHeight: 4, rgba: [0, 0], width: 4, height: 2, format: Self.format, backdrop: nil) == nil)
        #expect(PixelEncoder.encode(pixelWidth: 0, pixelHeight: 4, rgba: [], width: 4, height: 2, format: Self.format, backdrop: nil) == nil)
        #expect(PixelEncoder.encode(pixelWidth: 4, pixelHeight: 4, rgba: Self.rgba, width: 0, height: 2, format: Self.format, backdrop: nil) == nil)
    }
}
