import FoundationEssentials
import Glibc
import PajamaBasics

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
/// `attributes`, and in `color` (a story's own text colour, `TextColor`: 0xRRGGBB with its transparency in
/// the top byte) when it has one.
public struct TextSpan: Hashable, Sendable {
    public var from: Int
    public var to: Int
    public var attributes: TextAttributes
    public var color: UInt32?

    public init(from: Int, to: Int, attributes: TextAttributes, color: UInt32? = nil) {
        self.from = from
        self.to = to
        self.attributes = attributes
        self.color = color
    }
}

/// How a line's rows sit in the page's text column (a story's `(align:)`, `<p align>`). Justified text is
/// drawn left-aligned (a terminal's cells cannot spread words evenly).
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case left, center, right
}

/// What a piece of a row looks like: its attributes and its own colour (nil: the theme's).
public struct TextLook: Hashable, Sendable {
    public var attributes: TextAttributes
    public var color: UInt32?

    public init(attributes: TextAttributes = [], color: UInt32? = nil) {
        self.attributes = attributes
        self.color = color
    }
}

/// Text colours as stories write them: `#rgb`, `#rrggbb`, `#rgba`, `#rrggbbaa`, `rgb()`, `rgba()`, or a CSS
/// colour name. A colour is 0xRRGGBB with its transparency (255 minus its alpha) in the top byte: an opaque
/// colour is its 24 bits, and a partly transparent one is blended with the background it is drawn on
/// (`Theme.readableTextColor`). A fully transparent colour is none (the theme's colour is used).
public enum TextColor {
    /// The colour `text` names, nil when it names none (or `transparent`, `inherit`, an alpha of 0...).
    public static func parse(_ text: String) -> UInt32? {
        let value = text.trimmingSpaces.lowercased()
        if value.hasPrefix("#") {
            let digits = value.dropFirst()
            guard digits.allSatisfy(\.isHexDigit), let number = UInt32(digits, radix: 16) else { return nil }
            func double(_ nibble: UInt32) -> UInt32 { (nibble & 0xF) * 0x11 }
            switch digits.count {
            case 6: return number
            case 3: return double(number >> 8) << 16 | double(number >> 4) << 8 | double(number)
            case 8: return with(rgb: number >> 8, alpha: UInt8(number & 0xFF))
            case 4: return with(rgb: double(number >> 12) << 16 | double(number >> 8) << 8 | double(number >> 4), alpha: UInt8(double(number)))
            default: return nil
            }
        }
        if value.hasPrefix("rgb(") || value.hasPrefix("rgba("), value.hasSuffix(")"),
            let open = value.firstIndex(of: "(")
        {
            let parts = value[value.index(after: open)..<value.index(before: value.endIndex)].split(separator: ",")
                .map { $0.trimmingSpaces }
            let numbers = parts.prefix(3).compactMap { Double($0) }
            guard (3...4).contains(parts.count), numbers.count == 3, numbers.allSatisfy({ (0...255).contains($0) }) else { return nil }
            let rgb = UInt32(numbers[0].rounded()) << 16 | UInt32(numbers[1].rounded()) << 8 | UInt32(numbers[2].rounded())
            guard parts.count == 4 else { return rgb }
            let written = parts[3]
            guard let alpha = written.hasSuffix("%") ? Double(written.dropLast()).map({ $0 / 100 }) : Double(written), (0...1).contains(alpha)
            else { return nil }
            return with(rgb: rgb, alpha: UInt8((alpha * 255).rounded()))
        }
        return names[value]
    }

    /// The colour `rgb` (0xRRGGBB) at opacity `alpha` (255 opaque); nil when fully transparent.
    public static func with(rgb: UInt32, alpha: UInt8) -> UInt32? {
        alpha == 0 ? nil : UInt32(255 - alpha) << 24 | rgb & 0xFF_FFFF
    }

    /// A colour's opacity, 255 for an opaque one.
    public static func alpha(_ color: UInt32) -> UInt8 { 255 - UInt8(color >> 24) }

    /// `#rrggbb` for an opaque colour, `#rrggbbaa` for a partly transparent one.
    public static func hex(_ color: UInt32) -> String {
        let digits = String(color & 0xFF_FFFF, radix: 16)
        let rgb = "#" + String(repeating: "0", count: 6 - digits.count) + digits
        let alpha = alpha(color)
        guard alpha < 255 else { return rgb }
        return rgb + (alpha < 16 ? "0" : "") + String(alpha, radix: 16)
    }

    /// CSS's colour names most stories use (the 16 of HTML 4 and the common others).
    static let names: [String: UInt32] = [
        "black": 0x000000, "silver": 0xC0C0C0, "gray": 0x808080, "grey": 0x808080, "white": 0xFFFFFF, "maroon": 0x800000,
        "red": 0xFF0000, "purple": 0x800080, "fuchsia": 0xFF00FF, "magenta": 0xFF00FF, "green": 0x008000, "lime": 0x00FF00,
        "olive": 0x808000, "yellow": 0xFFFF00, "navy": 0x000080, "blue": 0x0000FF, "teal": 0x008080, "aqua": 0x00FFFF,
        "cyan": 0x00FFFF, "orange": 0xFFA500, "pink": 0xFFC0CB, "brown": 0xA52A2A, "gold": 0xFFD700, "violet": 0xEE82EE,
        "indigo": 0x4B0082, "crimson": 0xDC143C, "darkred": 0x8B0000, "darkgreen": 0x006400, "darkblue": 0x00008B,
        "lightblue": 0xADD8E6, "lightgreen": 0x90EE90, "lightgray": 0xD3D3D3, "lightgrey": 0xD3D3D3, "darkgray": 0xA9A9A9,
        "darkgrey": 0xA9A9A9, "orangered": 0xFF4500, "skyblue": 0x87CEEB, "steelblue": 0x4682B4, "tomato": 0xFF6347,
        "turquoise": 0x40E0D0, "salmon": 0xFA8072, "khaki": 0xF0E68C, "plum": 0xDDA0DD, "chocolate": 0xD2691E,
        "tan": 0xD2B48C, "beige": 0xF5F5DC, "ivory": 0xFFFFF0, "coral": 0xFF7F50, "goldenrod": 0xDAA520,
        "forestgreen": 0x228B22, "seagreen": 0x2E8B57, "royalblue": 0x4169E1, "slategray": 0x708090, "slategrey": 0x708090,
        "dimgray": 0x696969, "dimgrey": 0x696969, "firebrick": 0xB22222, "darkorange": 0xFF8C00, "deeppink": 0xFF1493,
        "hotpink": 0xFF69B4, "lavender": 0xE6E6FA, "mediumpurple": 0x9370DB, "darkviolet": 0x9400D3, "limegreen": 0x32CD32,
        "yellowgreen": 0x9ACD32, "wheat": 0xF5DEB3, "sienna": 0xA0522D, "midnightblue": 0x191970, "darkcyan": 0x008B8B,
        "cornflowerblue": 0x6495ED, "dodgerblue": 0x1E90FF, "deepskyblue": 0x00BFFF, "springgreen": 0x00FF7F,
    ]
}

/// The styling of one line of a text page (the page's `lines[line]`): its spans, its hard line breaks
/// (an ink `<br>`): the offsets of the characters (a space in the plain text, so a transcript or the voice
/// reads the words apart) where the line breaks without starting a new paragraph, and its alignment (nil:
/// as the page lays it out).
public struct LineMarks: Hashable, Sendable {
    public var line: Int
    public var spans: [TextSpan]
    public var breaks: [Int]
    public var alignment: TextAlignment?

    public init(line: Int, spans: [TextSpan] = [], breaks: [Int] = [], alignment: TextAlignment? = nil) {
        self.line = line
        self.spans = spans
        self.breaks = breaks
        self.alignment = alignment
    }

    /// True when the marks change nothing.
    public var isEmpty: Bool { spans.isEmpty && breaks.isEmpty && alignment == nil }

    /// `text` cut into its rows (at the breaks) and each row into runs of an equal look: what a renderer
    /// draws. Nested spans add their attributes; the innermost (last) colour wins. A span or break past the
    /// text's end is ignored.
    public func runs(of text: String) -> [[(text: String, look: TextLook)]] {
        let characters = Array(text)
        var looks = [TextLook](repeating: TextLook(), count: characters.count)
        for span in spans {
            let from = max(0, span.from), to = min(characters.count, span.to)
            guard from < to else { continue }
            for index in from..<to {
                looks[index].attributes.formUnion(span.attributes)
                if let color = span.color { looks[index].color = color }
            }
        }
        let breakSet = Set(breaks.filter { characters.indices.contains($0) })
        var rows: [[(text: String, look: TextLook)]] = [[]]
        for (index, character) in characters.enumerated() {
            if breakSet.contains(index) {
                rows.append([])
                continue
            }
            if let last = rows[rows.count - 1].last, last.look == looks[index] {
                rows[rows.count - 1][rows[rows.count - 1].count - 1].text.append(character)
            } else {
                rows[rows.count - 1].append((String(character), looks[index]))
            }
        }
        return rows
    }
}
