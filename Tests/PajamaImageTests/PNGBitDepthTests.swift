import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaImage

/// The same picture decodes to the same pixels whatever its PNG bit depth, colour type and colour chunks
/// (issue 35 item 2): a 16-bit PNG without gAMA was drawn lighter than its 8-bit copy (libpng's simplified
/// API takes such a file as linear light), a night sky (12,27,60) as (63,92,132).
@Suite struct PNGBitDepthTests {
    /// A night sky, a lamp, grey, black and white, and a half-transparent cloud: RGBA, 8 bits.
    static let pixels: [[UInt8]] = [
        [12, 27, 60, 255], [250, 210, 90, 255], [128, 128, 128, 255], [0, 0, 0, 255],
        [255, 255, 255, 255], [40, 90, 160, 128], [200, 40, 20, 255], [12, 27, 60, 0],
    ]
    static let width = 4, height = 2

    static func decode(_ bytes: [UInt8]) throws -> [UInt8] {
        guard case .bitmap(let width, let height, let rgba) = try ImageDecoder.decode(path: AssetPath(validating: "assets/sky.png"), bytes: bytes)
        else { throw DecodeFailure() }
        #expect(width == Self.width && height == Self.height)
        return rgba
    }

    struct DecodeFailure: Error {}

    /// Each 8-bit sample as a sample of `bitDepth` bits (16-bit: times 257, the exact same value).
    static func samples(_ values: [UInt8], bitDepth: UInt8) -> [UInt16] { values.map { bitDepth == 16 ? UInt16($0) * 257 : UInt16($0) } }

    static func rgba(bitDepth: UInt8, chunks: [(String, [UInt8])] = []) -> [UInt8] {
        PNGFile.samples(width: width, height: height, bitDepth: bitDepth, colorType: .rgba, samples: samples(pixels.flatMap { $0 }, bitDepth: bitDepth),
                        chunks: chunks)
    }

    static let gamma = ("gAMA", PNGFile.uint32(45455))
    static let srgb = ("sRGB", [UInt8(0)])

    @Test(arguments: [UInt8(8), 16])
    func rgbaAtEitherDepthWithOrWithoutColourChunksIsTheSamePicture(bitDepth: UInt8) throws {
        let expected = Self.pixels.flatMap { $0 }
        for chunks in [[], [Self.gamma], [Self.srgb], [Self.srgb, Self.gamma]] {
            let found = try Self.decode(Self.rgba(bitDepth: bitDepth, chunks: chunks))
            #expect(found == expected, "\(bitDepth)-bit, chunks \(chunks.map(\.0)): sky \(Array(found.prefix(4)))")
        }
    }

    @Test(arguments: [UInt8(8), 16])
    func rgbWithoutAlphaIsTheSamePicture(bitDepth: UInt8) throws {
        let opaque = Self.pixels.map { Array($0.prefix(3)) }
        let bytes = PNGFile.samples(width: Self.width, height: Self.height, bitDepth: bitDepth, colorType: .rgb,
                                    samples: Self.samples(opaque.flatMap { $0 }, bitDepth: bitDepth))
        #expect(try Self.decode(bytes) == opaque.flatMap { $0 + [255] })
    }

    @Test(arguments: [UInt8(8), 16])
    func greyWithAndWithoutAlphaIsTheSamePicture(bitDepth: UInt8) throws {
        let greys: [UInt8] = [12, 27, 60, 128, 200, 255, 0, 99]
        let alphas: [UInt8] = [255, 255, 128, 0, 255, 10, 255, 255]
        let gray = PNGFile.samples(width: Self.width, height: Self.height, bitDepth: bitDepth, colorType: .gray,
                                   samples: Self.samples(greys, bitDepth: bitDepth))
        #expect(try Self.decode(gray) == greys.flatMap { [$0, $0, $0, 255] })
        let grayAlpha = PNGFile.samples(width: Self.width, height: Self.height, bitDepth: bitDepth, colorType: .grayAlpha,
                                        samples: Self.samples(zip(greys, alphas).flatMap { [$0, $1] }, bitDepth: bitDepth))
        #expect(try Self.decode(grayAlpha) == zip(greys, alphas).flatMap { [$0, $0, $0, $1] })
    }

    @Test func aPaletteIsTheSamePicture() throws {
        let palette = Self.pixels.flatMap { $0.prefix(3) }
        let alphas = Self.pixels.map { $0[3] }
        let bytes = PNGFile.samples(width: Self.width, height: Self.height, bitDepth: 8, colorType: .palette,
                                    samples: (0..<8).map { UInt16($0) }, chunks: [("PLTE", palette), ("tRNS", alphas)])
        #expect(try Self.decode(bytes) == Self.pixels.flatMap { $0 })
    }

    /// A file that says its samples are linear light (gAMA 1.0) is converted from it: darker samples are
    /// lighter on screen, as every colour-managed viewer draws it.
    @Test func aFileThatSaysItIsLinearIsConvertedFromIt() throws {
        let linear = try Self.decode(Self.rgba(bitDepth: 16, chunks: [("gAMA", PNGFile.uint32(100_000))]))
        #expect(linear[0] > 12 && linear[1] > 27 && linear[2] > 60)
    }
}
