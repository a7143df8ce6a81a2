import PajamaModel
import Testing
@testable import PajamaImage

/// Every format decodes to the same upright picture, and the format is known by the bytes, not the name.
@Suite struct PictureFormatTests {
    static let allKinds = [
        "quadrants.png", "baseline.jpg", "progressive.jpg", "cmyk.jpg", "lossy.webp", "lossless.webp",
        "animated.webp", "plain.gif", "animated.gif",
    ]

    @Test(arguments: allKinds)
    func everyFormatShowsTheQuadrants(name: String) throws {
        let image = try PictureFixture.decode(name)
        #expect(size(image)! == (32, 16))
        for q in PictureFixture.quadrants {
            let found = pixel(image, q.x, q.y)
            #expect(near(Array(found.prefix(3)), q.rgb) && found[3] == 255, "\(name): \(q.name) is \(found)")
        }
    }

    @Test func theFormatIsKnownByItsBytes() throws {
        #expect(PictureFormat(sniffing: try PictureFixture.bytes("quadrants.png")) == .png)
        #expect(PictureFormat(sniffing: try PictureFixture.bytes("progressive.jpg")) == .jpeg)
        #expect(PictureFormat(sniffing: try PictureFixture.bytes("alpha.webp")) == .webp)
        #expect(PictureFormat(sniffing: try PictureFixture.bytes("plain.gif")) == .gif)
        #expect(PictureFormat(sniffing: Array("hello".utf8)) == nil)
        #expect(PictureFormat(sniffing: Array("RIFF\u{8}\0\0\0WAVEfmt ".utf8)) == nil)
    }

    /// A story's `.png` that holds a JPEG (and the other way round) shows the picture it holds.
    @Test(arguments: [("baseline.jpg", "harbour.png"), ("quadrants.png", "harbour.jpg"), ("lossy.webp", "harbour.gif"),
                      ("plain.gif", "harbour.txt")])
    func aPictureWhoseNameSaysAnotherFormatIsReadAsWhatItHolds(file: String, named: String) throws {
        let image = try PictureFixture.decode(file, as: named)
        #expect(near(Array(pixel(image, 24, 4).prefix(3)), [0, 255, 0]))
    }

    @Test func textArtIsStillReadFromATxtFile() throws {
        let image = try ImageDecoder.decode(path: AssetPath(validating: "assets/door.txt"), bytes: Array(" /\\\n/__\\\n".utf8))
        #expect(image == .textArt(lines: [" /\\", "/__\\"]))
    }

    /// Files that are no picture Pajama reads: the error names the file and says what it is instead.
    @Test(arguments: [
        ("door.jpg", Array("<!DOCTYPE html><html><body>Not Found</body></html>".utf8), "not a JPEG file despite its name: it is an HTML page"),
        ("door.bmp", [0x42, 0x4D, 0x3A, 0, 0, 0, 0, 0, 0, 0], "not a picture: it is a BMP picture"),
        ("door.png", [], "not a PNG file despite its name: it is an empty file"),
        ("door.svg", Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "it is an SVG drawing"),
        ("door.avif", [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], "it is an AVIF picture"),
        ("door.tif", [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], "it is a TIFF picture"),
        ("door.webp", Array("RIFF\u{4}\0\0\0WAVE".utf8), "not a WebP file despite its name: it is a RIFF file that is not a WebP picture"),
        ("door", [0x01, 0x02, 0xAB], "not a picture: it starts with the bytes 01 02 AB"),
    ] as [(String, [UInt8], String)])
    func aFileThatIsNoPictureGetsAClearError(name: String, bytes: [UInt8], reason: String) throws {
        let path = try AssetPath(validating: "assets/\(name)")
        let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: path, bytes: bytes) }
        #expect(error?.kind == .invalidFormat)
        #expect(error?.subject == "assets/\(name)")
        #expect(error?.detail.contains(reason) == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("pictures are PNG, JPEG, WebP or GIF files, or .txt text art") == true)
        #expect(error.map(String.init(describing:))?.contains("assets/\(name)") == true)
    }
}
