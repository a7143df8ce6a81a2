import CDeflate
import Foundation

/// An RGB picture read back from what a terminal would draw (a sixel or kitty sequence, a window dump), to
/// compare with the picture that was sent.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major, 3 bytes a pixel.
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    public init(width: Int, height: Int, fill: (r: UInt8, g: UInt8, b: UInt8) = (0, 0, 0)) {
        self.width = width
        self.height = height
        rgb = Array([fill.r, fill.g, fill.b].repeated(width * height).joined())
    }

    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let at = (y * width + x) * 3
        return (rgb[at], rgb[at + 1], rgb[at + 2])
    }

    /// `width` x `height` pixels from (x, y) (clipped to the picture).
    public func crop(x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        let width = max(0, min(width, self.width - x)), height = max(0, min(height, self.height - y))
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 3)
        for row in 0..<height {
            let start: Int = ((y + row) * self.width + x) * 3
            out += rgb[start..<(start + width * 3)]
        }
        return RGBImage(width: width, height: height, rgb: out)
    }

    /// An RGBA bitmap scaled to `width` x `height` by averaging the source pixels each target pixel covers.
    public static func scaled(rgba: [UInt8], width sourceWidth: Int, height sourceHeight: Int, to width: Int, _ height: Int) -> RGBImage {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let y0 = y * sourceHeight / height, y1 = max(y0 + 1, (y + 1) * sourceHeight / height)
            for x in 0..<width {
                let x0 = x * sourceWidth / width, x1 = max(x0 + 1, (x + 1) * sourceWidth / width)
                var sum = [0, 0, 0]
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let at = (sy * sourceWidth + sx) * 4
                        for c in 0..<3 { sum[c] += Int(rgba[at + c]) }
                    }
                }
                let count = (y1 - y0) * (x1 - x0)
                for c in 0..<3 { out[(y * width + x) * 3 + c] = UInt8(sum[c] / count) }
            }
        }
        return RGBImage(width: width, height: height, rgb: out)
    }

    /// Peak signal-to-noise ratio in dB against `other` of the same size (infinity when equal; about 30 dB
    /// and up is a faithful copy, under 15 dB another picture).
    public func psnr(_ other: RGBImage) -> Double {
        precondition(width == other.width && height == other.height, "PSNR of \(width)x\(height) against \(other.width)x\(other.height)")
        var sum = 0.0
        for index in rgb.indices {
            let d = Double(rgb[index]) - Double(other.rgb[index])
            sum += d * d
        }
        let mse = sum / Double(max(1, rgb.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}

extension Array {
    fileprivate func repeated(_ count: Int) -> [[Element]] { Array<[Element]>(repeating: self, count: count) }
}

/// A small sixel decoder (DEC VT340 sixel graphics, as xterm reads them): raster attributes, colour
/// registers in RGB percent, repeats, graphics carriage return and new line. Pixels no sixel sets stay
/// `background`.
public enum SixelDecoder {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The picture drawn by the first sixel sequence (ESC P ... q ... ESC \) in `bytes`.
    public static func decode(_ bytes: [UInt8], background: (UInt8, UInt8, UInt8) = (0, 0, 0)) throws -> RGBImage {
        guard let start = bytes.indices.first(where: { bytes[$0] == 0x1B && $0 + 1 < bytes.count && bytes[$0 + 1] == UInt8(ascii: "P") }),
            let q = bytes[start...].firstIndex(of: UInt8(ascii: "q"))
        else { throw Failure(description: "no sixel sequence (ESC P ... q)") }
        var index = q + 1
        var width = 0, height = 0
        var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
        var color = (UInt8(0), UInt8(0), UInt8(0))
        var x = 0, band = 0
        var pixels: [Int: (UInt8, UInt8, UInt8)] = [:]  // y * 65536 + x
        var maxX = 0, maxY = 0
        func number() -> Int {
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
                index += 1
                values.append(number())
            }
            return values
        }
        func put(_ sixel: UInt8, times: Int) {
            let bits = Int(sixel) - 0x3F
            for _ in 0..<times {
                for bit in 0..<6 where bits & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    pixels[y * 65536 + x] = color
                    maxY = max(maxY, y + 1)
                }
                x += 1
                maxX = max(maxX, x)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                index = bytes.count  // ST
            case UInt8(ascii: "\""):
                index += 1
                let values = numbers()
                if values.count >= 4 { (width, height) = (values[2], values[3]) }
            case UInt8(ascii: "#"):
                index += 1
                let values = numbers()
                if values.count >= 5, values[1] == 2 {
                    palette[values[0]] = (UInt8(values[2] * 255 / 100), UInt8(values[3] * 255 / 100), UInt8(values[4] * 255 / 100))
                } else if values.count >= 5 {
                    throw Failure(description: "colour register \(values[0]) in colour space \(values[1]) (only RGB is read)")
                }
                color = palette[values[0]] ?? (0, 0, 0)
            case UInt8(ascii: "!"):
                index += 1
                let times = number()
                guard index < bytes.count, (0x3F...0x7E).contains(bytes[index]) else { throw Failure(description: "a repeat with no sixel") }
                put(bytes[index], times: times)
                index += 1
            case UInt8(ascii: "$"):
                x = 0
                index += 1
            case UInt8(ascii: "-"):
                x = 0
                band += 1
                index += 1
            case 0x3F...0x7E:
                put(byte, times: 1)
                index += 1
            default:
                index += 1  // newlines and other fillers are ignored
            }
        }
        let w = max(width, maxX), h = max(height, maxY)
        var image = RGBImage(width: w, height: h, fill: background)
        for (key, value) in pixels {
            let (y, x) = (key / 65536, key % 65536)
            guard x < w, y < h else { continue }
            let at = (y * w + x) * 3
            (image.rgb[at], image.rgb[at + 1], image.rgb[at + 2]) = value
        }
        return image
    }
}

/// A small decoder of the kitty graphics protocol's direct transmissions (`a=T` or `a=t`, `f=24` or `f=32`,
/// data in base64 chunks, zlib-compressed with `o=z`): the image and the keys of its first command.
public enum KittyGraphicsDecoder {
    public struct Image: Sendable {
        /// The keys of the first command (`a`, `i`, `f`, `s`, `v`, `c`, `r`, `q`, `C`, ...).
        public let keys: [String: String]
        public let image: RGBImage
    }

    public static func decode(_ bytes: [UInt8]) throws -> Image {
        var keys: [String: String] = [:]
        var data = Data()
        var index = 0
        var first = true
        var more = false  // the last command said m=1: another chunk must follow
        while let start = find([0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")], in: bytes, from: index) {
            guard let end = find([0x1B, UInt8(ascii: "\\")], in: bytes, from: start + 3) else {
                throw SixelDecoder.Failure(description: "a kitty command with no end (ESC \\)")
            }
            let body = String(decoding: bytes[(start + 3)..<end], as: UTF8.self)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            if first {
                for pair in parts[0].split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
                }
                first = false
            }
            if parts.count == 2 {
                // Each chunk is base64 on its own, at most 4096 characters, as kitty reads it.
                guard parts[1].utf8.count <= 4096 else { throw SixelDecoder.Failure(description: "a chunk of \(parts[1].utf8.count) characters (at most 4096)") }
                guard let chunk = Data(base64Encoded: String(parts[1])) else { throw SixelDecoder.Failure(description: "a chunk is not base64") }
                data += chunk
            }
            more = parts[0].split(separator: ",").contains("m=1")
            index = end + 2
        }
        if more { throw SixelDecoder.Failure(description: "the last chunk says m=1: more to come") }
        guard let format = keys["f"], let width = keys["s"].flatMap(Int.init), let height = keys["v"].flatMap(Int.init) else {
            throw SixelDecoder.Failure(description: "no kitty transmission with f, s and v (keys: \(keys))")
        }
        let channels = format == "32" ? 4 : format == "24" ? 3 : 0
        if keys["o"] == "z" { data = try inflate(data, size: width * height * channels) }
        guard channels > 0, data.count == width * height * channels else {
            throw SixelDecoder.Failure(description: "f=\(format) \(width)x\(height) with \(data.count) bytes")
        }
        let source = [UInt8](data)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for pixel in 0..<(width * height) {
            for c in 0..<3 { rgb[pixel * 3 + c] = source[pixel * channels + c] }
        }
        return Image(keys: keys, image: RGBImage(width: width, height: height, rgb: rgb))
    }

    /// A zlib stream (`o=z`) inflated to the `size` bytes it must hold.
    static func inflate(_ data: Data, size: Int) throws -> Data {
        var out = [UInt8](repeating: 0, count: size + 1)
        var length = uLong(out.count)
        let source = [UInt8](data)
        let status = uncompress(&out, &length, source, uLong(source.count))
        guard status == Z_OK, Int(length) == size else {
            throw SixelDecoder.Failure(description: "o=z data does not inflate to \(size) bytes (zlib status \(status), \(length) bytes)")
        }
        return Data(out.prefix(size))
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { at in needle.indices.allSatisfy { bytes[at + $0] == needle[$0] } }
    }
}
