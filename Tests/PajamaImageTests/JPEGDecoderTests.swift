import PajamaModel
import Testing
@testable import PajamaImage

@Suite struct JPEGDecoderTests {
    @Test func greyscaleBecomesGreyRGBA() throws {
        let image = try PictureFixture.decode("grey.jpg")
        // Pillow's greys for red, green, blue and white (ITU-R 601-2 luma).
        for (q, grey) in zip(PictureFixture.quadrants, [76, 150, 29, 255]) {
            #expect(near(pixel(image, q.x, q.y), [grey, grey, grey, 255], tolerance: 6), "\(q.name)")
        }
    }

    /// Adobe's CMYK (the APP14 marker, values stored inverted): red, green, blue and white come out as such,
    /// not as their negatives.
    @Test func adobeCMYKIsConvertedToRGB() throws {
        let bytes = try PictureFixture.bytes("cmyk.jpg")
        #expect(bytes[2...3] == [0xFF, 0xEE], "the fixture has an Adobe APP14 marker")
        let image = try PictureFixture.decode("cmyk.jpg")
        for q in PictureFixture.quadrants {
            #expect(near(pixel(image, q.x, q.y), q.rgb + [255]), "\(q.name): \(pixel(image, q.x, q.y))")
        }
    }

    /// Each of the eight EXIF orientations: the file stores the picture turned so that the orientation shows
    /// it upright; the decoder turns it (5 to 8 also swap width and height: stored 16x32, shown 32x16).
    @Test(arguments: 1...8)
    func exifOrientationTurnsThePictureUpright(orientation: Int) throws {
        let bytes = try PictureFixture.bytes("orientation-\(orientation).jpg")
        #expect(bytes.withUnsafeBufferPointer { ExifOrientation(jpeg: $0) } == ExifOrientation(orientation))
        let image = try PictureFixture.decode("orientation-\(orientation).jpg")
        #expect(size(image)! == (32, 16))
        for q in PictureFixture.quadrants {
            #expect(near(pixel(image, q.x, q.y), q.rgb + [255]), "orientation \(orientation): \(q.name) is \(pixel(image, q.x, q.y))")
        }
    }

    @Test func orientationIsReadFromBigEndianExifToo() {
        // APP1 "Exif\0\0" + "MM" TIFF, one IFD entry: 0x0112 SHORT 1 = 6.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(2 + 6 + tiff.count)] + Array("Exif\0\0".utf8) + tiff
        let jpeg: [UInt8] = [0xFF, 0xD8] + app1 + [0xFF, 0xDA, 0, 2]
        #expect(jpeg.withUnsafeBufferPointer { ExifOrientation(jpeg: $0) } == ExifOrientation(6))
        // A segment whose length runs past the file, or an IFD offset past it: orientation 1.
        let cut = Array(jpeg.prefix(20))
        #expect(cut.withUnsafeBufferPointer { ExifOrientation(jpeg: $0) } == ExifOrientation(1))
        var farIFD = jpeg
        farIFD[4 + 2 + 6 + 7] = 0xF0
        #expect(farIFD.withUnsafeBufferPointer { ExifOrientation(jpeg: $0) } == ExifOrientation(1))
    }

    /// A header that claims 60000x60000 pixels is refused from the header, before any pixel is decoded.
    @Test func aHugePictureIsRefusedFromItsHeader() throws {
        var bytes = try PictureFixture.bytes("baseline.jpg")
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0xEA, 0x60, 0xEA, 0x60])
        let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: AssetPath(validating: "assets/bomb.jpg"), bytes: bytes) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.detail == "60000x60000 pixels (at most 4096 per side)")
    }

    /// A progressive JPEG of more scans than any real picture has (each a pass over the whole picture) is
    /// refused: hundreds of empty scans cost a hostile file nothing and the reader seconds.
    @Test func aJPEGOfTooManyScansIsRefused() throws {
        let bytes = try PictureFixture.bytes("progressive.jpg")
        // Repeat the last scan (its SOS header and data, up to EOI) until there are more than the limit.
        let lastSOS = try #require(bytes.indices.last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let scan = Array(bytes[lastSOS..<(bytes.count - 2)])
        var many = Array(bytes[..<lastSOS])
        for _ in 0...JPEGDecoder.maximumScans { many += scan }
        many += [0xFF, 0xD9]
        let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: AssetPath(validating: "assets/scans.jpg"), bytes: many) }
        #expect(error?.detail.contains("progressive scans") == true, "\(error?.detail ?? "")")
    }
}
