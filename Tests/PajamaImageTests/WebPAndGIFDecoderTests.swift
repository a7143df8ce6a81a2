import PajamaModel
import Testing
@testable import PajamaImage

@Suite struct WebPAndGIFDecoderTests {
    /// Lossless and lossy WebP with alpha, and a GIF whose white is its transparent colour: the white
    /// quadrant is see-through, the others opaque.
    @Test(arguments: ["alpha.webp", "alpha-lossy.webp", "transparent.gif"])
    func transparencyIsKept(name: String) throws {
        let image = try PictureFixture.decode(name)
        #expect(size(image)! == (32, 16))
        for q in PictureFixture.quadrants.prefix(3) {
            #expect(near(pixel(image, q.x, q.y), q.rgb + [255]), "\(name): \(q.name) is \(pixel(image, q.x, q.y))")
        }
        #expect(pixel(image, 24, 12)[3] == 0, "\(name): the white quadrant is \(pixel(image, 24, 12))")
    }

    /// An animation shows its first frame (the quadrants), not its second (all black).
    @Test(arguments: ["animated.webp", "animated.gif"])
    func anAnimationShowsItsFirstFrame(name: String) throws {
        let image = try PictureFixture.decode(name)
        #expect(near(pixel(image, 8, 4), [255, 0, 0, 255]), "\(pixel(image, 8, 4))")
    }

    /// A GIF frame smaller than its logical screen stands at its place on it; the rest is transparent.
    @Test func aGIFFrameIsPlacedOnItsScreen() throws {
        var bytes = try PictureFixture.bytes("plain.gif")
        // The logical screen 40x20 (bytes 6-9, little-endian); the frame stays 32x16 at (0, 0).
        bytes.replaceSubrange(6...9, with: [40, 0, 20, 0])
        let image = try ImageDecoder.decode(path: AssetPath(validating: "assets/screen.gif"), bytes: bytes)
        #expect(size(image)! == (40, 20))
        #expect(near(pixel(image, 24, 4), [0, 255, 0, 255]))
        #expect(pixel(image, 36, 18)[3] == 0)
    }

    /// Headers that claim a huge picture are refused before any pixel is decoded.
    @Test func hugePicturesAreRefusedFromTheirHeaders() throws {
        // GIF: a 65535x65535 logical screen.
        var gif = try PictureFixture.bytes("plain.gif")
        gif.replaceSubrange(6...9, with: [0xFF, 0xFF, 0xFF, 0xFF])
        // GIF: a small screen whose frame claims 5000x5000 (its image descriptor, after the colour table).
        var frame = try PictureFixture.bytes("plain.gif")
        let descriptor = try #require(frame.indices.first { frame[$0] == 0x2C && $0 > 13 })
        frame.replaceSubrange((descriptor + 5)...(descriptor + 8), with: [0x88, 0x13, 0x88, 0x13])
        // WebP lossless: the VP8L header's 14-bit sizes all ones (16384x16384).
        var webp = try PictureFixture.bytes("lossless.webp")
        let vp8l = try #require(webp.indices.first { webp[$0...].starts(with: Array("VP8L".utf8)) })
        let bits = vp8l + 9  // "VP8L", the chunk size (4), the signature byte 0x2F
        webp.replaceSubrange(bits...(bits + 2), with: [0xFF, 0xFF, 0xFF])
        webp[bits + 3] |= 0x0F
        for (name, bytes, sizeText) in [("screen.gif", gif, "65535x65535"), ("frame.gif", frame, "5000x5000"), ("huge.webp", webp, "16384x16384")] {
            let error = #expect(throws: AssetLoadError.self) { try ImageDecoder.decode(path: AssetPath(validating: "assets/\(name)"), bytes: bytes) }
            #expect(error?.kind == .tooLarge, "\(name): \(String(describing: error))")
            #expect(error?.detail == "\(sizeText) pixels (at most 4096 per side)", "\(name)")
        }
    }
}
