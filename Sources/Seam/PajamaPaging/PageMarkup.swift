import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// The HTML that web ink writes in its text (docs/ink.md, "Markup"): `<b>`, `<strong>`, `<i>`, `<em>`,
/// `<u>`, `<br>`, `<span class="...">`, `<span style="color: ...">`, `<font color="...">`, `<a href="...">`,
/// `<p>`/`<div>` with `align` or `style="text-align: ..."` and `<center>`, and the entities `&amp; &lt; &gt;
/// &quot; &#39; &apos; &nbsp;` and `&#NNN;` / `&#xHH;`. `parse` turns a line into its plain text (what a
/// transcript, the voice and the backlog read) and its marks (what the page draws: bold, italic, underline,
/// dim, colours, hard breaks and the line's alignment). The Twine bridge writes Harlowe's styles in the same
/// HTML. Unity's and TextMesh Pro's rich text (`<color=#ff0000>`, `<size=50>`, `<align=center>`, `<#ff0000>`,
/// `<s>`, ...), which ink games made for Unity write, is read too: its styles drawn, its other tags taken
/// off whole (`unityTags`). A known tag is never kept as text, and never half of one: an unknown HTML tag is
/// dropped and named in `unknown` (for `pajama validate`); an unknown tag written Unity's way
/// (`<wave=2>...</wave>`) is no HTML and is shown whole, its closing tag too. A `<` that does not start a tag
/// (`3 < 5`, `<3`) is text.
public enum PageMarkup {
    /// A line read: its plain text, its spans and breaks (offsets in `Character`s of `text`), and the names of
    /// the tags it held that Pajama does not know.
    public struct Parsed: Equatable, Sendable {
        public var text: String
        public var spans: [TextSpan]
        public var breaks: [Int]
        public var unknown: [String]
        /// The alignment of the block (`<p align>`, `<div style="text-align">`, `<center>`) around the line's
        /// first visible character.
        public var alignment: TextAlignment?

        public init(text: String, spans: [TextSpan], breaks: [Int], unknown: [String], alignment: TextAlignment? = nil) {
            self.text = text
            self.spans = spans
            self.breaks = breaks
            self.unknown = unknown
            self.alignment = alignment
        }

        /// The marks for line `index` of a page, nil when there is nothing to mark.
        public func marks(line index: Int) -> LineMarks? {
            let marks = LineMarks(line: index, spans: spans, breaks: breaks, alignment: alignment)
            return marks.isEmpty ? nil : marks
        }
    }

    /// The tags Pajama knows: HTML's and Unity's.
    public static let knownTags: Set<String> = htmlTags.union(unityTags)

    /// The HTML tags Pajama knows (drawn, or dropped keeping their text: `p`, `div`).
    public static let htmlTags: Set<String> = ["b", "strong", "i", "em", "u", "br", "span", "a", "font", "p", "div", "center", "s", "strike", "del"]

    /// Unity's and TextMesh Pro's rich-text tags: `color` (`<color=#rrggbb>`, `<color="red">`, `<#rrggbb>`)
    /// and `align` drawn as HTML's colours and alignment, `s` and `strikethrough` dim (a terminal has no
    /// strike), the others (sizes, fonts, spacing, sprites, links...) taken off whole, their text kept.
    public static let unityTags: Set<String> = [
        "color", "align", "size", "material", "quad", "alpha", "cspace", "font-weight", "gradient", "indent", "line-height",
        "line-indent", "link", "lowercase", "uppercase", "allcaps", "smallcaps", "margin", "mark", "mspace", "nobr", "noparse",
        "page", "pos", "rotate", "space", "sprite", "style", "sub", "sup", "voffset", "width", "strikethrough",
    ]

    /// The style a class name stands for (`# CLASS: name`, `<span class="name">`), nil for a class Pajama has
    /// no style for (ignored). Several names (`"bold dim"`) combine.
    public static func attributes(forClass names: String) -> TextAttributes? {
        var attributes = TextAttributes()
        var known = false
        for name in names.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            switch name {
            case "bold", "strong", "b": attributes.insert(.bold)
            case "italic", "italics", "em", "emphasis", "i": attributes.insert(.italic)
            case "underline", "underlined", "u": attributes.insert(.underline)
            case "dim", "faint", "muted", "quiet", "whisper": attributes.insert(.dim)
            default: continue
            }
            known = true
        }
        return known ? attributes : nil
    }

    /// True when `text` may hold markup or an entity (most lines do not: they are taken as they are).
    /// One pass over the bytes in place (this runs for every line and choice a story says).
    public static func mayHoldMarkup(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") } }
    }

    public static func parse(_ line: String) -> Parsed {
        guard mayHoldMarkup(line) else { return Parsed(text: line, spans: [], breaks: [], unknown: []) }
        var text = ""
        var count = 0
        var spans: [TextSpan] = []
        var breaks: [Int] = []
        var unknown: [String] = []
        /// Unknown tags written Unity's way that were shown as text: their closing tags are shown too.
        var shownWhole: Set<String> = []
        var alignment: TextAlignment?
        var alignmentFound = false
        /// The open tags, with what each adds.
        var open: [(name: String, look: TextLook, alignment: TextAlignment?)] = []
        var current: TextLook {
            open.reduce(into: TextLook()) { look, tag in
                look.attributes.formUnion(tag.look.attributes)
                if let color = tag.look.color { look.color = color }
            }
        }

        func append(_ piece: String) {
            guard !piece.isEmpty else { return }
            // The line is aligned as the block around its first visible character says.
            if !alignmentFound, piece.contains(where: { !$0.isWhitespace }) {
                alignmentFound = true
                alignment = open.last { $0.alignment != nil }?.alignment
            }
            let before = count
            text += piece
            count = text.count
            let look = current
            guard look != TextLook(), count > before else { return }
            if let last = spans.last, last.to == before, last.attributes == look.attributes, last.color == look.color {
                spans[spans.count - 1].to = count
            } else {
                spans.append(TextSpan(from: before, to: count, attributes: look.attributes, color: look.color))
            }
        }

        let scalars = Array(line.unicodeScalars)
        var plain = String.UnicodeScalarView()
        func flush() {
            append(String(plain))
            plain = String.UnicodeScalarView()
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", let tag = Tag.read(scalars, at: index) {
                if !knownTags.contains(tag.name), tag.valueForm || (tag.closing && shownWhole.contains(tag.name)) {
                    // Not HTML and not Unity's: text, whole.
                    if !tag.closing { shownWhole.insert(tag.name) }
                    plain.append(contentsOf: scalars[index..<tag.end])
                    index = tag.end
                    continue
                }
                flush()
                index = tag.end
                if !knownTags.contains(tag.name) {
                    if !unknown.contains(tag.name) { unknown.append(tag.name) }
                    continue
                }
                if tag.name == "br" {
                    breaks.append(count)
                    append(" ")
                    continue
                }
                if tag.closing {
                    if let position = open.lastIndex(where: { $0.name == tag.name }) { open.removeSubrange(position...) }
                    continue
                }
                if tag.selfClosing { continue }
                open.append((tag.name, TextLook(attributes: attributes(of: tag), color: color(of: tag)), Self.alignment(of: tag)))
                continue
            }
            if scalar == "&", let (decoded, end) = entity(scalars, at: index) {
                plain.append(decoded)
                index = end
                continue
            }
            plain.append(scalar)
            index += 1
        }
        flush()
        // A break at either end of the line breaks nothing.
        breaks.removeAll { $0 == 0 || $0 == count - 1 }
        return Parsed(text: text, spans: spans, breaks: breaks, unknown: unknown, alignment: alignment)
    }

    /// Text without its markup (choices, titles): the plain text alone.
    public static func plainText(_ line: String) -> String { parse(line).text }

    private static func attributes(of tag: Tag) -> TextAttributes {
        switch tag.name {
        case "b", "strong": .bold
        case "i", "em": .italic
        case "u", "a": .underline
        case "s", "strike", "del", "strikethrough": .dim
        case "span": tag.attribute("class").flatMap { attributes(forClass: $0) } ?? []
        default: []
        }
    }

    /// The colour a tag gives its text: `<font color>`, or `color:` in its `style` (nil for none or one
    /// Pajama cannot read).
    private static func color(of tag: Tag) -> UInt32? {
        if tag.name == "font" || tag.name == "color", let color = tag.attribute("color") { return TextColor.parse(color) }
        return tag.style("color").flatMap(TextColor.parse)
    }

    /// The alignment a block tag gives its line: `<center>`, `align="..."` or `text-align:` in its style,
    /// Unity's `<align=...>`. `justify` is drawn left.
    private static func alignment(of tag: Tag) -> TextAlignment? {
        guard ["p", "div", "center", "align"].contains(tag.name) else { return nil }
        if tag.name == "center" { return .center }
        switch (tag.attribute("align") ?? tag.style("text-align"))?.lowercased() {
        case "center", "centre", "middle": return .center
        case "right", "end": return .right
        case "left", "justify", "start", "flush": return .left
        default: return nil
        }
    }

    /// One tag: `<name attr="value" ...>`, `</name>`, `<name/>`, or Unity's `<name=value ...>` (the value
    /// kept as the attribute `name`) and `<#rrggbb>` (a `color`).
    private struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var attributes: [String: String]
        /// The index after its `>`.
        var end: Int
        /// Written Unity's way, `<name=value>`: no HTML.
        var valueForm = false

        func attribute(_ key: String) -> String? { attributes[key] }

        /// The value of `property` in the tag's `style` attribute (`style="color: red; text-align: center"`).
        func style(_ property: String) -> String? {
            guard let style = attributes["style"] else { return nil }
            for declaration in style.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingSpaces.lowercased() == property else { continue }
                return parts[1].trimmingSpaces
            }
            return nil
        }

        static func read(_ scalars: [Unicode.Scalar], at start: Int) -> Tag? {
            var index = start + 1
            var closing = false
            if index < scalars.count, scalars[index] == "/" {
                closing = true
                index += 1
            }
            if !closing, index < scalars.count, scalars[index] == "#" {
                // TextMesh Pro's colour shorthand `<#f80>`, `<#ff8000>`, `<#ff8000aa>`: closed by `</color>`.
                var hex = "#"
                index += 1
                while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isASCIIHexDigit {
                    hex.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count, scalars[index] == ">", [4, 5, 7, 9].contains(hex.count) else { return nil }
                return Tag(name: "color", closing: false, selfClosing: false, attributes: ["color": hex], end: index + 1, valueForm: true)
            }
            guard index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic else { return nil }
            var name = ""
            while index < scalars.count, scalars[index].isASCII,
                scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) || (scalars[index] == "-" && !name.isEmpty) {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            name = name.lowercased()
            var attributes: [String: String] = [:]
            var valueForm = false
            if !closing, index < scalars.count, scalars[index] == "=" {
                // Unity's `<size=50>`, `<color="red">`, `<align=center>`: the value up to the next `>` or space.
                index += 1
                guard let (value, after) = Self.value(scalars, at: index), after < scalars.count else { return nil }
                attributes[name] = value
                valueForm = true
                index = after
            }
            guard index < scalars.count, scalars[index] == ">" || scalars[index] == "/" || scalars[index] == " " || scalars[index] == "\t" else {
                return nil
            }
            var selfClosing = false
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == ">" {
                    return Tag(name: name, closing: closing, selfClosing: selfClosing, attributes: attributes, end: index + 1, valueForm: valueForm)
                }
                if scalar == " " || scalar == "\t" {
                    index += 1
                    continue
                }
                if scalar == "/" {
                    selfClosing = true
                    index += 1
                    continue
                }
                // An attribute: key, optionally = and a value (quoted or bare).
                var key = ""
                while index < scalars.count, !" \t=>/".unicodeScalars.contains(scalars[index]) {
                    key.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard !key.isEmpty else { return nil }
                var value = ""
                if index < scalars.count, scalars[index] == "=" {
                    guard let (read, after) = Self.value(scalars, at: index + 1) else { return nil }
                    value = read
                    index = after
                }
                attributes[key.lowercased()] = value
            }
            return nil
        }

        /// An attribute's value at `start` (quoted, or bare up to a space or `>`) and the index after it.
        static func value(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
            var index = start
            var value = ""
            if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                let quote = scalars[index]
                index += 1
                while index < scalars.count, scalars[index] != quote {
                    value.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard index < scalars.count else { return nil }
                return (value, index + 1)
            }
            while index < scalars.count, !" \t>".unicodeScalars.contains(scalars[index]) {
                value.unicodeScalars.append(scalars[index])
                index += 1
            }
            return (value, index)
        }
    }

    /// The entity at `start` (`&name;`, `&#NNN;`, `&#xHH;`) and the index after it; nil when it is not one.
    private static func entity(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var index = start + 1
        var body = ""
        while index < scalars.count, index - start <= 10, scalars[index] != ";" {
            body.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count, scalars[index] == ";", !body.isEmpty else { return nil }
        let end = index + 1
        switch body {
        case "amp": return ("&", end)
        case "lt": return ("<", end)
        case "gt": return (">", end)
        case "quot": return ("\"", end)
        case "apos": return ("'", end)
        case "nbsp": return ("\u{A0}", end)
        default: break
        }
        guard body.hasPrefix("#") else { return nil }
        let digits = body.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, end)
    }
}
