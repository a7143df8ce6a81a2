/// The picture formats Pajama decodes, known by their first bytes (their magic), never by the file's name:
/// a `.png` that holds a JPEG is read as the JPEG it is.
public enum PictureFormat: String, CaseIterable, Sendable {
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"
    case gif = "GIF"

    /// The format `bytes` are in, or nil when they start like none of them.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }

    /// The format a file name's extension promises, if it names one of ours.
    public init?(fileExtension: String) {
        switch fileExtension {
        case "png": self = .png
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "webp": self = .webp
        case "gif": self = .gif
        default: return nil
        }
    }

    /// What `bytes` are when they are none of our formats, as far as their first bytes tell (other picture
    /// formats, and the files most often found under a picture's name: an HTML error page, an SVG drawing).
    static func otherKind(of bytes: [UInt8]) -> String? {
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if bytes.isEmpty { return "an empty file" }
        if starts("BM") { return "a BMP picture" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "a TIFF picture" }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if brand.hasPrefix("avi") { return "an AVIF picture" }
            if brand.hasPrefix("hei") || brand.hasPrefix("mif") { return "a HEIC picture" }
        }
        if bytes.starts(with: [0x00, 0x00, 0x01, 0x00]) { return "an ICO icon" }
        if starts("%PDF") { return "a PDF document" }
        if bytes.starts(with: [0xFF, 0x0A]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "a JPEG XL picture" }
        if starts("RIFF") { return "a RIFF file that is not a WebP picture" }
        let head = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if head.contains("<svg") { return "an SVG drawing" }
        if head.contains("<html") || head.contains("<!doctype html") { return "an HTML page" }
        return nil
    }
}
