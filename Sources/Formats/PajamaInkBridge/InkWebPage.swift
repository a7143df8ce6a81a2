import PajamaPaging

/// The page of Inky's web export (`index.html` beside `story.js`): Inky writes the story's title into its
/// `<title>` (the `# title:` tag, or else the ink file's name). A story without a `# title:` tag is shown with
/// that title rather than its folder's name, unless it says nothing of the story (docs/ink.md, "Web exports").
enum InkWebPage {
    /// The page's file name in the story's folder.
    static let file = "index.html"

    /// True when the ink file `file` is a web export's (`story.js`), the only kind with such a page beside it.
    static func isBeside(_ file: String) -> Bool { file.lowercased().hasSuffix(".js") }

    /// The most of the page read for its title.
    static let scannedBytes = 64 * 1024

    /// Titles that name no story: a template's placeholder or the usual file names (`main`, `story`...).
    private static let saysNothing: Set<String> = ["", "untitled", "ink", "index", "story", "main", "game", "inky", "##story title##"]

    /// The title in the page's `<title>` element: its entities decoded, spaces collapsed, control characters
    /// and markup dropped, at most 500 characters; nil when there is none or it says nothing of the story
    /// (an empty title, a placeholder, or the ink file's own name `stem`).
    static func title(in page: [UInt8], stem: String) -> String? {
        let head = page.prefix(scannedBytes)
        guard let open = find(Array("<title".utf8), in: head),
            let openEnd = head[open...].firstIndex(of: UInt8(ascii: ">")),
            let close = find(Array("</title".utf8), in: head[(openEnd + 1)...])
        else { return nil }
        let raw = String(decoding: head[(openEnd + 1)..<close], as: UTF8.self)
        let text = PageMarkup.plainText(raw)
        let words = text.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.isWhitespace ? " " : String($0) }.joined()
            .split(separator: " ").joined(separator: " ")
        let title = String(words.prefix(500))
        let lower = title.lowercased()
        return saysNothing.contains(lower) || lower == stem.lowercased() ? nil : title
    }

    /// Where `needle` first occurs in `bytes`, ASCII letters compared without case.
    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        var index = bytes.startIndex
        while index + needle.count <= bytes.endIndex {
            if lower(bytes[index]) == needle[0] {
                var matched = true
                for offset in 1..<needle.count where lower(bytes[index + offset]) != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
