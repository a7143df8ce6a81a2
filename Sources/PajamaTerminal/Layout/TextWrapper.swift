/// Word wrapping by display width (not character count): wide characters take two cells, long
/// words are broken, spaces at line ends are dropped.
public enum TextWrapper {
    /// Wraps `text` (already sanitised) into lines of at most `width` cells.
    public static func wrap(_ text: String, width: Int) -> [String] {
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
