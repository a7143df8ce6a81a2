import PajamaModel

/// Decodes story pictures: the one decision, shared by the reader, `play` and `validate`, of what a picture
/// file is and whether it can be shown. PNG, JPEG, WebP and GIF (known by their first bytes, whatever the
/// file is called) become RGBA; a `.txt` file that is none of them is text art.
public enum ImageDecoder {
    /// Largest picture accepted, in pixels per side (see `PictureLimits`).
    public static let maximumSide = PictureLimits.maximumSide
    /// Text art limits.
    public static let maximumTextLines = 200
    public static let maximumTextColumns = 400

    public static func decode(path: AssetPath, bytes: [UInt8]) throws(AssetLoadError) -> StoryImage {
        if let format = PictureFormat(sniffing: bytes) {
            return try decode(bytes, as: format, name: path.value)
        }
        if path.fileExtension == "txt" { return try decodeText(bytes, name: path.value) }
        throw AssetLoadError(.invalidFormat, subject: path.value, detail: unreadableReason(bytes, fileExtension: path.fileExtension))
    }

    /// Decodes `bytes` as `format` (the format's own decoder; what the fuzz targets call).
    public static func decode(_ bytes: [UInt8], as format: PictureFormat, name: String) throws(AssetLoadError) -> StoryImage {
        switch format {
        case .png: try PNGDecoder.decode(bytes, name: name)
        case .jpeg: try JPEGDecoder.decode(bytes, name: name)
        case .webp: try WebPDecoder.decode(bytes, name: name)
        case .gif: try GIFDecoder.decode(bytes, name: name)
        }
    }

    /// Why bytes that are no picture we read cannot be shown, as precisely as their first bytes tell.
    static func unreadableReason(_ bytes: [UInt8], fileExtension: String) -> String {
        let accepted = "pictures are PNG, JPEG, WebP or GIF files, or .txt text art"
        let what: String
        if let kind = PictureFormat.otherKind(of: bytes) {
            what = "it is \(kind)"
        } else {
            let head = bytes.prefix(8).map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }
            what = "it starts with the bytes \(head.joined(separator: " "))"
        }
        if let promised = PictureFormat(fileExtension: fileExtension) {
            return "not a \(promised.rawValue) file despite its name: \(what) (\(accepted))"
        }
        return "not a picture: \(what) (\(accepted))"
    }

    /// Text art from UTF-8 bytes (what a `.txt` picture that is none of the picture formats is read as).
    public static func decodeText(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
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
