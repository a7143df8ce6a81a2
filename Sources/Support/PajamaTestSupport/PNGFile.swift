/// Writes small PNG files for tests (real files libpng reads, in the formats stories use): 1-bit
/// palette pictures with a transparent entry (line art), 8-bit RGBA, and any colour type at 8 or 16 bits. The image data is stored
/// uncompressed (deflate's stored blocks), which every PNG reader accepts.
public enum PNGFile {
    /// A 1-bit palette PNG: `pixels[y][x]` is true for ink. Ink is `ink` (0xRRGGBB, opaque); the rest is
    /// palette entry 0, fully transparent (a `tRNS` chunk).
    public static func lineArt(_ pixels: [[Bool]], ink: UInt32 = 0x000000) -> [UInt8] {
        let width = pixels.first?.count ?? 0, height = pixels.count
        var raw: [UInt8] = []
        for row in pixels {
            raw.append(0)  // filter: none
            var byte: UInt8 = 0
            for (x, on) in row.enumerated() {
                if on { byte |= 0x80 >> UInt8(x % 8) }
                if x % 8 == 7 || x == row.count - 1 {
                    raw.append(byte)
                    byte = 0
                }
            }
        }
        let palette: [UInt8] = [255, 255, 255, UInt8(ink >> 16 & 0xFF), UInt8(ink >> 8 & 0xFF), UInt8(ink & 0xFF)]
        return file(width: width, height: height, bitDepth: 1, colorType: 3,
                    extra: [("PLTE", palette), ("tRNS", [0, 255])], data: raw)
    }

    /// An 8-bit RGBA PNG from row-major pixels, 4 bytes each.
    public static func rgba(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            raw += pixels[(y * width * 4)..<((y + 1) * width * 4)]
        }
        return file(width: width, height: height, bitDepth: 8, colorType: 6, extra: [], data: raw)
    }

    /// The colour types of PNG's IHDR.
    public enum ColorType: UInt8, CaseIterable, Sendable {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        /// Samples per pixel.
        public var channels: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    /// A PNG of `samples` (row-major, `colorType.channels` a pixel; palette indices for `.palette`) at 8 or
    /// 16 bits a sample, with `chunks` (`PLTE`, `tRNS`, `gAMA`, `sRGB`...) before its data.
    public static func samples(width: Int, height: Int, bitDepth: UInt8, colorType: ColorType, samples: [UInt16],
                               chunks: [(String, [UInt8])] = []) -> [UInt8] {
        precondition(bitDepth == 8 || bitDepth == 16, "8 or 16 bits a sample")
        precondition(samples.count == width * height * colorType.channels, "one sample a channel of each pixel")
        let rowSamples = width * colorType.channels
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for sample in samples[(y * rowSamples)..<((y + 1) * rowSamples)] {
                if bitDepth == 16 { raw.append(UInt8(sample >> 8)) }
                raw.append(UInt8(sample & 0xFF))
            }
        }
        return file(width: width, height: height, bitDepth: bitDepth, colorType: colorType.rawValue, extra: chunks, data: raw)
    }

    /// A chunk's body holding one big-endian 32-bit number (`gAMA`'s gamma times 100000).
    public static func uint32(_ value: UInt32) -> [UInt8] { bigEndian(value) }

    private static func file(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, extra: [(String, [UInt8])], data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        out += chunk("IHDR", header)
        for (type, body) in extra { out += chunk(type, body) }
        out += chunk("IDAT", zlibStored(data))
        out += chunk("IEND", [])
        return out
    }

    /// `png` with a tEXt chunk of `size` bytes after its header (libpng skips it; the file grows, and stays decodable).
    public static func padded(_ png: [UInt8], by size: Int) -> [UInt8] {
        let afterHeader = 8 + 25  // signature, then IHDR (length, type, 13 bytes, CRC)
        let text = chunk("tEXt", Array("Comment".utf8) + [0] + [UInt8](repeating: UInt8(ascii: "x"), count: size))
        return Array(png[..<afterHeader]) + text + Array(png[afterHeader...])
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(body.count)) + typeBytes + body + bigEndian(crc32(typeBytes + body))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
