/// How a piece of text is drawn beyond its page role: bold, italic, underline, dim. Set by the markup of an
/// ink story's text (`<b>`, `<i>`, `<u>`, `<span class=...>`, docs/ink.md, "Markup") and by `# CLASS:`.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1)
    public static let italic = TextAttributes(rawValue: 2)
    public static let underline = TextAttributes(rawValue: 4)
    public static let dim = TextAttributes(rawValue: 8)

    /// The names used in a beat's JSON, in order.
    public static let names: [(String, TextAttributes)] = [("bold", .bold), ("italic", .italic), ("underline", .underline), ("dim", .dim)]
}

/// A run of a line's characters (`from..<to`, counted in `Character`s of the plain text) drawn with
/// `attributes`.
public struct TextSpan: Hashable, Sendable {
    public var from: Int
    public var to: Int
    public var attributes: TextAttributes

    public init(from: Int, to: Int, attributes: TextAttributes) {
        self.from = from
        self.to = to
        self.attributes = attributes
    }
}

/// The styling of one line of a text page (the page's `lines[line]`): its spans, and its hard line breaks
/// (an ink `<br>`): the offsets of the characters (a space in the plain text, so a transcript or the voice
/// reads the words apart) where the line breaks without starting a new paragraph.
public struct LineMarks: Hashable, Sendable {
    public var line: Int
    public var spans: [TextSpan]
    public var breaks: [Int]

    public init(line: Int, spans: [TextSpan] = [], breaks: [Int] = []) {
        self.line = line
        self.spans = spans
        self.breaks = breaks
    }

    /// True when the marks change nothing.
    public var isEmpty: Bool { spans.isEmpty && breaks.isEmpty }

    /// `text` cut into its rows (at the breaks) and each row into runs of equal attributes: what a renderer
    /// draws. A span or break past the text's end is ignored.
    public func runs(of text: String) -> [[(text: String, attributes: TextAttributes)]] {
        let characters = Array(text)
        var attributes = [TextAttributes](repeating: [], count: characters.count)
        for span in spans {
            let from = max(0, span.from), to = min(characters.count, span.to)
            guard from < to else { continue }
            for index in from..<to { attributes[index].formUnion(span.attributes) }
        }
        let breakSet = Set(breaks.filter { characters.indices.contains($0) })
        var rows: [[(text: String, attributes: TextAttributes)]] = [[]]
        for (index, character) in characters.enumerated() {
            if breakSet.contains(index) {
                rows.append([])
                continue
            }
            if let last = rows[rows.count - 1].last, last.attributes == attributes[index] {
                rows[rows.count - 1][rows[rows.count - 1].count - 1].text.append(character)
            } else {
                rows[rows.count - 1].append((String(character), attributes[index]))
            }
        }
        return rows
    }
}
