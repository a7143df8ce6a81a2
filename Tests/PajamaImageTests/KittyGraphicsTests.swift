import PajamaTestSupport
import Testing
@testable import PajamaImage

/// The kitty commands: a transmission read back as kitty reads it (chunks of at most 4096 base64 characters,
/// `m=1` until the last), compressed when that helps; placements and deletes by id.
@Suite struct KittyGraphicsTests {
    /// Pixels no compressor shrinks (a xorshift sequence), and pixels it does (a gradient).
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 0x9E37_79B9
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Test(arguments: [false, true])
    func aTransmissionReadsBackAsThePixels(compressible: Bool) throws {
        let (width, height) = (90, 70)
        let rgba = compressible ? (0..<(width * height)).flatMap { [UInt8($0 % width), UInt8($0 / width), 80, 255] } : Self.noise(width * height * 4)
        let bytes = KittyGraphics.transmit(id: 77, rgba: rgba, width: width, height: height)
        let decoded = try KittyGraphicsDecoder.decode(bytes)
        #expect(decoded.keys["a"] == "t" && decoded.keys["i"] == "77" && decoded.keys["f"] == "32" && decoded.keys["q"] == "2")
        #expect(decoded.keys["o"] == (compressible ? "z" : nil), "compressed only when smaller")
        let expected = (0..<(width * height)).flatMap { rgba[($0 * 4)..<($0 * 4 + 3)] }
        #expect(decoded.image.rgb == expected)
        let commands = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}_G").dropFirst()
        if !compressible { #expect(commands.count == (width * height * 4 * 4 / 3 + 4095) / 4096) }
        for (index, command) in commands.enumerated() {
            let last = index == commands.count - 1
            #expect(command.contains(last ? "m=0;" : "m=1;"), "\(index): \(command.prefix(60))")
            if index > 0 { #expect(command.hasPrefix(last ? "m=0;" : "m=1;"), "later chunks carry only m") }
        }
        #expect(decoded.image.width == width && decoded.image.height == height)
    }

    @Test func placementsAndDeletesNameTheImage() {
        #expect(String(decoding: KittyGraphics.place(id: 9, columns: 30, rows: 12), as: UTF8.self) == "\u{1B}_Ga=p,i=9,p=1,c=30,r=12,C=1,q=2\u{1B}\\")
        #expect(String(decoding: KittyGraphics.deletePlacements(id: 9), as: UTF8.self) == "\u{1B}_Ga=d,d=i,i=9,q=2\u{1B}\\")
        #expect(String(decoding: KittyGraphics.free(id: 9), as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=9,q=2\u{1B}\\")
        let first = KittyGraphics.newImageID(), second = KittyGraphics.newImageID()
        #expect(first != 0 && second != first)
    }
}
