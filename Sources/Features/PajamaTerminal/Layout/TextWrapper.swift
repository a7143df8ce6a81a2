/// Word wrapping by display width (not character count): wide characters take two cells, long
/// words are broken, spaces at line ends are dropped.
public enum TextWrapper {
    /// Wraps `text` (already sanitised) into lines of at most `width` cells.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        return wrapPrintableASCII(text, width: width) ?? wrapCharacters(text, width: width)
    }

    /// `wrap` for any text, a character at a time.
    static func wrapCharacters(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = String(word)
                var wordWidth = DisplayWidth.of(word)
                let gap = line.isEmpty ? 0 : 1
                if lineWidth + gap + wordWidth <= width {
                    if gap == 1 { line += " " }
                    line += word
                    lineWidth += gap + wordWidth
                    continue
                }
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let (head, rest) = split(word, width: width)
                    lines.append(head)
                    word = rest
                    wordWidth = DisplayWidth.of(word)
                }
                line = word
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// `wrap` for text of printable ASCII only (one cell a byte, no line breaks): the same lines, built
    /// from the bytes without a `String` per word (a frame wraps every line of its page). Nil for any other
    /// text.
    private static func wrapPrintableASCII(_ text: String, width: Int) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            var lines: [String] = []
            var line: [UInt8] = []
            line.reserveCapacity(width)
            let space = UInt8(ascii: " ")
            var index = 0
            while index < bytes.count {
                if bytes[index] == space {
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count, bytes[end] != space { end += 1 }
                var word = index..<end
                index = end
                let gap = line.isEmpty ? 0 : 1
                if line.count + gap + word.count <= width {
                    if gap == 1 { line.append(space) }
                    line.append(contentsOf: bytes[word])
                    continue
                }
                if !line.isEmpty {
                    lines.append(String(decoding: line, as: UTF8.self))
                    line.removeAll(keepingCapacity: true)
                }
                while word.count > width {
                    lines.append(String(decoding: bytes[word.prefix(width)], as: UTF8.self))
                    word = word.dropFirst(width)
                }
                line.append(contentsOf: bytes[word])
            }
            lines.append(String(decoding: line, as: UTF8.self))
            return lines
        }
    }

    /// The longest prefix of `text` fitting in `width` cells (at least one character), and the rest.
    static func split(_ text: String, width: Int) -> (String, String) {
        var used = 0
        var index = text.startIndex
        while index < text.endIndex {
            let w = DisplayWidth.of(text[index])
            if used + w > width && index != text.startIndex { break }
            used += w
            index = text.index(after: index)
        }
        return (String(text[..<index]), String(text[index...]))
    }

    /// `text` clipped to `width` cells.
    public static func clip(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var used = 0
        var out = ""
        for c in text {
            let w = DisplayWidth.of(c)
            if used + w > width { break }
            out.append(c)
            used += w
        }
        return out
    }
}
