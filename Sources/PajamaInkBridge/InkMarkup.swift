import Foundation
import PajamaCore

/// The HTML that web ink writes in its text (docs/ink.md, "Markup"): `<b>`, `<strong>`, `<i>`, `<em>`,
/// `<u>`, `<br>`, `<span class="...">`, `<span style="color: ...">`, `<font color="...">`, `<a href="...">`,
/// `<p>`/`<div>` with `align` or `style="text-align: ..."` and `<center>`, and the entities `&amp; &lt; &gt;
/// &quot; &#39; &apos; &nbsp;` and `&#NNN;` / `&#xHH;`. `parse` turns a line into its plain text (what a
/// transcript, the voice and the backlog read) and its marks (what the page draws: bold, italic, underline,
/// dim, colours, hard breaks and the line's alignment). The Twine bridge writes Harlowe's styles in the same
/// HTML. A tag is never kept as text: an unknown one is dropped and named in `unknown` (for
/// `pajama validate`). A `<` that does not start a tag (`3 < 5`, `<3`) is text.
public enum InkMarkup {
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

    /// The tags Pajama knows.
    public static let knownTags: Set<String> = ["b", "strong", "i", "em", "u", "br", "span", "a", "font", "p", "div", "center"]

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
    public static func mayHoldMarkup(_ text: String) -> Bool { text.utf8.contains(UInt8(ascii: "<")) || text.utf8.contains(UInt8(ascii: "&")) }

    public static func parse(_ line: String) -> Parsed {
        guard mayHoldMarkup(line) else { return Parsed(text: line, spans: [], breaks: [], unknown: []) }
        var text = ""
        var count = 0
        var spans: [TextSpan] = []
        var breaks: [Int] = []
        var unknown: [String] = []
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
        case "span": tag.attribute("class").flatMap { attributes(forClass: $0) } ?? []
        default: []
        }
    }

    /// The colour a tag gives its text: `<font color>`, or `color:` in its `style` (nil for none or one
    /// Pajama cannot read).
    private static func color(of tag: Tag) -> UInt32? {
        if tag.name == "font", let color = tag.attribute("color") { return TextColor.parse(color) }
        return tag.style("color").flatMap(TextColor.parse)
    }

    /// The alignment a block tag gives its line: `<center>`, `align="..."` or `text-align:` in its style.
    /// `justify` is drawn left.
    private static func alignment(of tag: Tag) -> TextAlignment? {
        guard ["p", "div", "center"].contains(tag.name) else { return nil }
        if tag.name == "center" { return .center }
        switch (tag.attribute("align") ?? tag.style("text-align"))?.lowercased() {
        case "center", "centre", "middle": return .center
        case "right", "end": return .right
        case "left", "justify", "start": return .left
        default: return nil
        }
    }

    /// One tag: `<name attr="value" ...>`, `</name>`, `<name/>`.
    private struct Tag {
        var name: String
        var closing: Bool
        var selfClosing: Bool
        var attributes: [String: String]
        /// The index after its `>`.
        var end: Int

        func attribute(_ key: String) -> String? { attributes[key] }

        /// The value of `property` in the tag's `style` attribute (`style="color: red; text-align: center"`).
        func style(_ property: String) -> String? {
            guard let style = attributes["style"] else { return nil }
            for declaration in style.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == property else { continue }
                return parts[1].trimmingCharacters(in: .whitespaces)
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
            guard index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic else { return nil }
            var name = ""
            while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            guard index < scalars.count, scalars[index] == ">" || scalars[index] == "/" || scalars[index] == " " || scalars[index] == "\t" else {
                return nil
            }
            var attributes: [String: String] = [:]
            var selfClosing = false
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == ">" { return Tag(name: name.lowercased(), closing: closing, selfClosing: selfClosing, attributes: attributes, end: index + 1) }
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
                    index += 1
                    if index < scalars.count, scalars[index] == "\"" || scalars[index] == "'" {
                        let quote = scalars[index]
                        index += 1
                        while index < scalars.count, scalars[index] != quote {
                            value.unicodeScalars.append(scalars[index])
                            index += 1
                        }
                        guard index < scalars.count else { return nil }
                        index += 1
                    } else {
                        while index < scalars.count, !" \t>".unicodeScalars.contains(scalars[index]) {
                            value.unicodeScalars.append(scalars[index])
                            index += 1
                        }
                    }
                }
                attributes[key.lowercased()] = value
            }
            return nil
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
