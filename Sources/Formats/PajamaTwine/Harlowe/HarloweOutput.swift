import FoundationEssentials
import Glibc
import PajamaBasics

/// The text a passage writes, as a tree of hooks (so `(replace:)`, `(append:)`, `(prepend:)`, `(show:)` and
/// `(hide:)` find the named hooks written before them), flattened at the end into lines of the HTML
/// Pajama's markup reader knows (`<b> <i> <u> <span class>`, `<span style="color">`, `<div style="text-align">`,
/// `<br>`, `<img>`).
final class HarloweOutputHook {
    enum Item {
        case text(String)
        case hook(HarloweOutputHook)
        /// A link's text, where it was written.
        case link(String)
        case open(String), close(String)
        /// An aligner: the tag (`HarloweStyle.alignTag`) that aligns what follows, to the next aligner or the
        /// hook's end.
        case align(String)
        /// A short notice in place of what Pajama does not play.
        case notice(String)
    }

    let name: String?
    var items: [Item] = []
    var hidden = false
    /// Line breaks inside are spaces (`{...}`, `(collapse:)`).
    var collapses = false

    init(name: String?) { self.name = name }

    /// The hooks named `name` within, in order.
    func hooks(named name: String) -> [HarloweOutputHook] {
        var found: [HarloweOutputHook] = []
        for item in items {
            guard case .hook(let hook) = item else { continue }
            if hook.name == name { found.append(hook) }
            found += hook.hooks(named: name)
        }
        return found
    }

    /// The text written, plain (the text of a link made by `(click: ?hook)`).
    var plainText: String {
        items.map { item in
            switch item {
            case .text(let text), .link(let text): text
            case .hook(let hook): hook.hidden ? "" : hook.plainText
            case .open, .close, .align, .notice: ""
            }
        }.joined()
    }
}

/// One line of a moment's text: HTML markup as Pajama reads it, and the pictures and sounds its `<img>`
/// and `<audio>` tags name.
public struct HarloweLine: Sendable, Equatable {
    public var text: String
    public var image: String?
    /// What the picture shows, in words (its `<img alt>`), if it says.
    public var imageAlt: String?
    public var sounds: [String]
    /// What a sound of `sounds` is, in words, by its path: its `<audio title>` or `aria-label` (the page's
    /// caption of it, shown in plain mode and with captions on).
    public var soundCaptions: [String: String]
    /// What the line does to the background loop (`<audio src loop>`, HAL's looping tracks), if anything.
    public var loop: HarloweLoop?
    /// A page marker (`<!-- page -->`) was on the line or just before it: a new page starts here.
    public var startsPage: Bool

    public init(text: String, image: String? = nil, imageAlt: String? = nil, sounds: [String] = [], soundCaptions: [String: String] = [:],
                loop: HarloweLoop? = nil, startsPage: Bool = false) {
        self.text = text
        self.image = image
        self.imageAlt = imageAlt
        self.sounds = sounds
        self.soundCaptions = soundCaptions
        self.loop = loop
        self.startsPage = startsPage
    }
}

enum HarloweFlattener {
    static let linkStart: Unicode.Scalar = "\u{E000}"
    static let linkEnd: Unicode.Scalar = "\u{E001}"
    static let pageMark: Unicode.Scalar = "\u{E002}"
    /// Where the background loop stops (`(track: name, 'stop')` on the looping track).
    static let loopStop: Unicode.Scalar = "\u{E003}"

    static func lines(_ root: HarloweOutputHook) -> [HarloweLine] {
        var text = ""
        var open: [String] = []
        write(root, into: &text, open: &open, collapsing: false)
        var result: [HarloweLine] = []
        var pageMarked = false
        var audio: AudioElement?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var piece = String(raw)
            if piece.unicodeScalars.contains(pageMark) {
                pageMarked = true
                piece.unicodeScalars.removeAll { $0 == pageMark }
            }
            guard var line = line(piece, audio: &audio) else { continue }
            line.startsPage = pageMarked
            pageMarked = false
            result.append(line)
        }
        if let audio, let sound = audio.sound {  // an `<audio>` never closed: its sound is the text's last
            var last = result.popLast() ?? HarloweLine(text: "")
            audio.add(sound, to: &last.sounds, captions: &last.soundCaptions, loop: &last.loop)
            result.append(last)
        }
        return result
    }

    /// An `<audio>` without a `src` of its own, open across lines: its `<source>`s up to `</audio>` are one
    /// sound, the first Pajama may play of them (`HarloweAudio.sources(of:)`; the story source reads the next
    /// when the package lacks it).
    struct AudioElement {
        var loops: Bool
        /// Its `title` or `aria-label`: what the sound is, in words.
        var caption: String?
        var sources: [String] = []

        var sound: String? { HarloweAudio.sources(of: sources).first }

        func add(_ sound: String, to sounds: inout [String], captions: inout [String: String], loop: inout HarloweLoop?) {
            if loops {
                loop = .play(sound)
            } else {
                sounds.append(sound)
                if let caption { captions[sound] = caption }
            }
        }
    }

    private static func write(_ hook: HarloweOutputHook, into text: inout String, open: inout [String], collapsing: Bool) {
        guard !hook.hidden else { return }
        let collapsing = collapsing || hook.collapses
        let depth = open.count
        /// The aligner of this hook still open (closed at the next aligner).
        var aligner: String?
        func close(_ tag: String) {
            guard let index = open.lastIndex(of: tag) else { return }
            for inner in open[index...].reversed() { text += closing(inner) }
            let reopened = Array(open[(index + 1)...])
            open.removeSubrange(index...)
            for inner in reopened { open.append(inner); text += "<\(inner)>" }
        }
        for item in hook.items {
            switch item {
            case .text(var piece):
                if collapsing { piece = collapse(piece, after: text) }
                guard piece.contains("\n") else { text += piece; continue }
                // A style open across a line break is closed at the line's end and opened again on the next.
                let parts = piece.split(separator: "\n", omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    if index > 0 {
                        text += open.reversed().map { closing($0) }.joined() + "\n" + open.map { "<\($0)>" }.joined()
                    }
                    text += part
                }
            case .hook(let inner): write(inner, into: &text, open: &open, collapsing: collapsing)
            case .link(let label):
                text.unicodeScalars.append(linkStart)
                text += label
                text.unicodeScalars.append(linkEnd)
            case .open(let tag):
                open.append(tag)
                text += "<\(tag)>"
            case .close(let tag): close(tag)
            case .align(let tag):
                if let previous = aligner { close(previous) }
                aligner = tag
                open.append(tag)
                text += "<\(tag)>"
            case .notice(let message):
                text += "<span class=\"dim\">[\(escaped(message))]</span>"
            }
        }
        while open.count > depth { text += closing(open.removeLast()) }
    }

    private static func closing(_ tag: String) -> String { "</\(tag.split(separator: " ").first ?? "")>" }

    static func escaped(_ text: String) -> String {
        text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
    }

    private static func collapse(_ piece: String, after text: String) -> String {
        var result = ""
        var lastSpace = text.last.map { $0 == " " || $0 == "\n" } ?? true
        for character in piece {
            if character == "\n" || character == " " || character == "\t" {
                if !lastSpace { result.append(" ") }
                lastSpace = true
            } else {
                result.append(character)
                lastSpace = false
            }
        }
        return result
    }

    /// A line of the text: pictures and sounds taken out of it, links underlined; nil for a line that holds
    /// nothing but links (the choices say them) or nothing at all.
    private static func line(_ raw: String, audio: inout AudioElement?) -> HarloweLine? {
        var text = ""
        var image: String?
        var imageAlt: String?
        var sounds: [String] = []
        var captions: [String: String] = [:]
        var loop: HarloweLoop?
        var onlyLinks = true
        var hadLink = false
        var alignedBlocks = 0
        var rest = Substring(raw)
        while let start = rest.firstIndex(where: { $0 == "<" || $0.unicodeScalars.first == linkStart || $0.unicodeScalars.first == loopStop }) {
            let before = rest[..<start]
            text += before
            if !before.allSatisfy({ $0.isWhitespace || $0 == "|" || $0 == "·" || $0 == "," || $0 == "-" || $0 == "/" }) { onlyLinks = false }
            if rest[start].unicodeScalars.first == loopStop {
                loop = .stop
                rest = rest[rest.index(after: start)...]
                continue
            }
            if rest[start].unicodeScalars.first == linkStart {
                let end = rest[start...].firstIndex { $0.unicodeScalars.first == linkEnd } ?? rest.endIndex
                let label = rest[rest.index(after: start)..<end]
                text += "<u>" + label + "</u>"
                hadLink = true
                rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
                continue
            }
            guard let close = rest[start...].firstIndex(of: ">") else {
                text += rest[start...]
                onlyLinks = false
                rest = ""
                break
            }
            let tag = String(rest[start...close])
            let lower = tag.lowercased()
            if lower.hasPrefix("<img") {
                if image == nil, let source = attribute("src", in: tag) {
                    image = source
                    imageAlt = words(attribute("alt", in: tag))
                }
            } else if lower.hasPrefix("<audio") || lower.hasPrefix("<source") || lower.hasPrefix("</audio") {
                // `<audio src loop>`: the background loop; otherwise a sound when the page is entered. An
                // `<audio>` without a src plays the first of its `<source>`s Pajama may play.
                let closes = lower.hasPrefix("</audio") || lower.hasPrefix("<audio")
                if closes, let open = audio {
                    if let sound = open.sound { open.add(sound, to: &sounds, captions: &captions, loop: &loop) }
                    audio = nil
                }
                let source = attribute("src", in: tag)
                if lower.hasPrefix("<audio") {
                    let element = AudioElement(loops: hasAttribute("loop", in: lower), caption: words(attribute("title", in: tag)) ?? words(attribute("aria-label", in: tag)))
                    if let source { element.add(source, to: &sounds, captions: &captions, loop: &loop) } else { audio = element }
                } else if lower.hasPrefix("<source"), let source {
                    if audio != nil { audio?.sources.append(source) } else { sounds.append(source) }
                }
            } else if ["<p>", "<p ", "</p", "<div", "</div"].contains(where: lower.hasPrefix) {
                // A block that aligns its text is kept, with its end (the markup reader aligns the line);
                // another is a space.
                if lower.hasPrefix("</") ? alignedBlocks > 0 : lower.contains("align") {
                    alignedBlocks += lower.hasPrefix("</") ? -1 : 1
                    text += tag
                } else {
                    text += " "
                }
            } else if Self.drawn.contains(tagName(lower)) {
                text += tag
                if tagName(lower) == "br" { onlyLinks = false }
            }
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        if !rest.allSatisfy({ $0.isWhitespace || $0 == "|" || $0 == "·" || $0 == "," || $0 == "-" || $0 == "/" }) { onlyLinks = false }
        text = String(text.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\t" }.map(Character.init))
        let visible = text.trimmingTrailingSpaces()
        let empty = image == nil && sounds.isEmpty && loop == nil
        if hadLink && onlyLinks { return empty ? nil : HarloweLine(text: "", image: image, imageAlt: imageAlt, sounds: sounds, soundCaptions: captions, loop: loop) }
        if InlineMarkup.strip(visible).allSatisfy({ $0 == " " || $0 == "\u{A0}" }) && empty { return nil }
        return HarloweLine(text: visible, image: image, imageAlt: imageAlt, sounds: sounds, soundCaptions: captions, loop: loop)
    }

    /// An attribute's words, nil when it has none (absent, or only spaces).
    private static func words(_ value: String?) -> String? { value.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } }

    /// The tags Pajama's markup draws (docs/ink.md, "Markup"); any other is taken out (its text stays).
    static let drawn: Set<String> = ["b", "strong", "i", "em", "u", "br", "span", "a", "font", "center"]

    /// `b` for `<b>`, `</b>` or `<B class="x">`.
    private static func tagName(_ lower: String) -> String {
        String(lower.drop { $0 == "<" || $0 == "/" }.prefix { $0.isLetter || $0.isNumber })
    }

    /// Whether a lowercased HTML tag has the attribute `name` (`<audio src="x" loop>`).
    static func hasAttribute(_ name: String, in lower: String) -> Bool {
        let body = lower.drop { $0 != " " && $0 != "\n" && $0 != "\t" }
        var inQuote: Character?
        var word = ""
        for character in body + " " {
            if let quote = inQuote {
                if character == quote { inQuote = nil }
                continue
            }
            if character == "\"" || character == "'" { inQuote = character; continue }
            if character.isLetter || character == "-" { word.append(character); continue }
            if word == name { return true }
            word = ""
        }
        return false
    }

    /// The value of attribute `name` in an HTML tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        let lower = tag.lowercased()
        guard let found = lower.firstRange(of: " \(name)=") ?? lower.firstRange(of: "\n\(name)=") else { return nil }
        var rest = tag[found.upperBound...]
        guard let quote = rest.first else { return nil }
        if quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { return nil }
            return String(rest[..<end])
        }
        let end = rest.firstIndex { $0 == " " || $0 == ">" || $0 == "/" } ?? rest.endIndex
        return String(rest[..<end])
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        contains(target) ? replacing(target, with: replacement) : self
    }
}
