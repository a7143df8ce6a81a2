import CPNG
import PajamaCore

/// Decodes story pictures: PNG through libpng's simplified API to RGBA, `.txt` as text art.
public enum ImageDecoder {
    /// Largest picture accepted, in pixels per side (checked before anything is allocated).
    public static let maximumSide = 4096
    /// Text art limits.
    public static let maximumTextLines = 200
    public static let maximumTextColumns = 400

    public static func decode(path: AssetPath, bytes: [UInt8]) throws(AssetLoadError) -> StoryImage {
        switch path.fileExtension {
        case "png": return try decodePNG(bytes, name: path.value)
        case "txt": return try decodeText(bytes, name: path.value)
        default: throw AssetLoadError(.invalidFormat, subject: path.value, detail: "pictures are .png or .txt files")
        }
    }

    static func decodePNG(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        guard bytes.count >= 8, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw AssetLoadError(.invalidFormat, subject: name, detail: "not a PNG file")
        }
        var image = png_image()
        image.version = PAJAMA_PNG_IMAGE_VERSION
        let begun = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        defer { png_image_free(&image) }
        guard begun != 0 else { throw AssetLoadError(.decoding, subject: name, detail: message(of: image)) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            throw AssetLoadError(.tooLarge, subject: name, detail: "\(width)x\(height) pixels (at most \(maximumSide) per side)")
        }
        image.format = PAJAMA_PNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
            }
        }
        guard finished != 0 else { throw AssetLoadError(.decoding, subject: name, detail: message(of: image)) }
        return .bitmap(width: width, height: height, rgba: pixels)
    }

    private static func message(of image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static func decodeText(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AssetLoadError(.invalidFormat, subject: name, detail: "text art must be UTF-8")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.unicodeScalars.map { s in
                s == "\t" ? " " : (s.value < 0x20 || (0x7F...0x9F).contains(s.value)) ? "\u{FFFD}" : s
            }))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count <= maximumTextLines, lines.allSatisfy({ $0.count <= maximumTextColumns }) else {
            throw AssetLoadError(.tooLarge, subject: name, detail: "text art is at most \(maximumTextLines) lines of \(maximumTextColumns) characters")
        }
        return .textArt(lines: lines)
    }
}
