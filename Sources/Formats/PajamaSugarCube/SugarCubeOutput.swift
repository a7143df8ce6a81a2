import FoundationEssentials
import Glibc
import PajamaBasics

/// What a passage writes: a tree (so `<<replace>>`, `<<append>>`, `<<prepend>>` and `<<remove>>` find the
/// named elements written before them, and a taken `<<linkreplace>>` is replaced in place), flattened into
/// lines of the HTML Pajama's markup reader knows. A value: the page shown is part of the reading's state.
public indirect enum SugarCubeItem: Sendable, Equatable, Codable {
    /// Text and HTML, as written.
    case text(String)
    /// An element with an id (`<span id="x">`, `@@#x;...@@`): the tag it opened with, and what it holds.
    case element(id: String, tag: String, items: [SugarCubeItem])
    /// A link's text where it was written: the link's id in the state's links.
    case link(id: Int, label: String)
    case image(source: String, alt: String?)
    case sound(String)
    /// The background loop set (a source) or stopped (nil).
    case loop(String?)
    /// A short notice in place of what Pajama does not play.
    case notice(String)
    /// An input field (the state's `inputs`, by id): the page's text stops there for its question.
    case input(Int)
}

/// Builds the tree as the evaluator writes.
final class SugarCubeWriter {
    private struct Open {
        var id: String
        var tag: String
        var items: [SugarCubeItem]
        /// An element the author hid (`style="display:none"`, `hidden`, a `<dialog>` not open): a browser never
        /// shows it, so nothing of it is shown or offered; `depth` counts elements of its name open inside it.
        var hidden = false
        var depth = 0
        /// An `<a>`, `<button>` or `<area>` with `data-passage` (`openLink`): its passage and setter; what it
        /// holds becomes the link's text at its closing tag (`closeLink`).
        var link: (passage: String, setter: String?)?
    }

    private var stack = [Open(id: "", tag: "", items: [])]

    var items: [SugarCubeItem] {
        var all = stack
        while all.count > 1 {
            let top = all.removeLast()
            if !top.hidden { all[all.count - 1].items.append(.element(id: top.id, tag: top.tag, items: top.items)) }
        }
        return all[0].items
    }

    var stackIndices: Range<Int> { stack.indices }

    /// Whether what is written now is inside an element the author hid.
    var isHidden: Bool { stack.count > 1 && stack[stack.count - 1].hidden }

    /// Starts a group (a widget's output: SugarCube renders it into a fragment of its own): what is written
    /// until `endGroup` is kept apart; elements written before it are still found by `changeLevel`.
    func beginGroup() -> Int {
        stack.append(Open(id: "", tag: "", items: []))
        return stack.count - 1
    }

    /// Ends the group `level` began (the elements left open in it closed, as a fragment closes them): what it holds.
    func endGroup(_ level: Int) -> [SugarCubeItem] {
        while stack.count - 1 > level {
            let closed = stack.removeLast()
            if !closed.hidden { append(.element(id: closed.id, tag: closed.tag, items: closed.items)) }
        }
        return stack.removeLast().items
    }

    func changeLevel(_ level: Int, _ id: String, _ change: ([SugarCubeItem]) -> [SugarCubeItem]?) -> Bool {
        if level > 0, stack[level].id == id, let changed = change(stack[level].items) {
            stack[level].items = changed
            return true
        }
        return stack[level].items.change(element: id, change)
    }

    func append(_ item: SugarCubeItem) { stack[stack.count - 1].items.append(item) }

    func append(contentsOf items: [SugarCubeItem]) { stack[stack.count - 1].items += items }

    func text(_ text: String) {
        if case .text(let before)? = stack[stack.count - 1].items.last {
            stack[stack.count - 1].items[stack[stack.count - 1].items.count - 1] = .text(before + text)
        } else {
            stack[stack.count - 1].items.append(.text(text))
        }
    }

    /// An HTML tag: an element with an id opens a named element; its closing tag closes it.
    func tag(_ tag: String) {
        let name = Self.name(of: tag)
        let top = stack.count - 1
        if tag.hasPrefix("</") {
            if top > 0, stack[top].tag == name, stack[top].depth > 0 {
                stack[top].depth -= 1
            } else if top > 0, stack[top].tag == name {
                let closed = stack.removeLast()
                if !closed.hidden { append(.element(id: closed.id, tag: closed.tag, items: closed.items)) }
            } else {
                text(tag)
            }
            return
        }
        if top > 0, stack[top].hidden {
            if name == stack[top].tag, !tag.hasSuffix("/>") { stack[top].depth += 1 }
            return
        }
        if Self.hides(tag, name: name) {
            stack.append(Open(id: "", tag: name, items: [], hidden: true))
            return
        }
        if let id = Self.attribute("id", in: tag), !id.isEmpty, name == "span" || name == "div" || name == "p" {
            stack.append(Open(id: id, tag: name, items: []))
            return
        }
        let lower = tag.lowercased()
        if name == "img", let source = Self.attribute("src", in: tag) {
            append(.image(source: source, alt: Self.attribute("alt", in: tag)))
            return
        }
        if name == "audio", let source = Self.attribute("src", in: tag) {
            append(lower.contains(" loop") ? .loop(source) : .sound(source))
            return
        }
        text(tag)
    }

    /// Opens an element that will be a link (`<a data-passage="...">`): what is written until its closing tag
    /// is the link's text, not the page's.
    func openLink(_ name: String, passage: String, setter: String?) {
        stack.append(Open(id: "", tag: name, items: [], link: (passage, setter)))
    }

    /// If `tag` closes the element `openLink` opened last (which is then gone): its passage and setter, and
    /// what was written inside it; nil otherwise.
    func closeLink(_ tag: String) -> (passage: String, setter: String?, items: [SugarCubeItem])? {
        let top = stack.count - 1
        guard top > 0, let link = stack[top].link, tag.hasPrefix("</"), Self.name(of: tag) == stack[top].tag else { return nil }
        return (link.passage, link.setter, stack.removeLast().items)
    }

    /// The element's name and target passage (`data-passage`, or `@data-passage`, an expression) and setter
    /// (`data-setter`) if `tag` opens an `<a>`, `<button>` or `<area>` SugarCube makes a link of.
    static func passageLink(opening tag: String) -> (name: String, passage: String, evaluated: Bool, setter: String?)? {
        guard !tag.hasPrefix("</") else { return nil }
        let name = Self.name(of: tag)
        guard name == "a" || name == "button" || name == "area" else { return nil }
        if let expression = attribute("@data-passage", in: tag) {
            return (name, expression, true, attribute("data-setter", in: tag))
        }
        guard let passage = attribute("data-passage", in: tag) else { return nil }
        return (name, passage, false, attribute("data-setter", in: tag))
    }

    /// Elements without content or an end tag: hiding one hides nothing after it.
    static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "source", "wbr", "area", "base", "col", "embed", "track"]

    /// Whether the element `tag` opens is one a browser never shows: `hidden`, `style="display: none"`, or a
    /// `<dialog>` without `open`.
    static func hides(_ tag: String, name: String) -> Bool {
        guard !name.isEmpty, !voidElements.contains(name), !tag.hasSuffix("/>") else { return false }
        if name == "dialog" { return !hasAttribute("open", in: tag) }
        if hasAttribute("hidden", in: tag) { return true }
        guard let style = attribute("style", in: tag) else { return false }
        let declarations = style.lowercased().split(separator: ";").map { $0.filter { !$0.isWhitespace } }
        return declarations.contains { $0 == "display:none" || $0.hasPrefix("display:none!") }
    }

    /// Whether the tag has the attribute `name`, with or without a value.
    static func hasAttribute(_ name: String, in tag: String) -> Bool {
        let lower = tag.lowercased()
        var searchFrom = lower.startIndex
        while let found = lower[searchFrom..<lower.endIndex].firstRange(of: name) {
            searchFrom = found.upperBound
            guard found.lowerBound > lower.startIndex, lower[lower.index(before: found.lowerBound)].isWhitespace else { continue }
            guard let after = lower[found.upperBound...].first else { return true }
            if after.isWhitespace || after == "=" || after == ">" || after == "/" { return true }
        }
        return false
    }

    static func name(of tag: String) -> String {
        String(tag.drop { $0 == "<" || $0 == "/" }.prefix { $0.isLetter || $0.isNumber }).lowercased()
    }

    /// The value of attribute `name` in an HTML tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        let lower = tag.lowercased()
        var searchFrom = lower.startIndex
        while let found = lower[searchFrom..<lower.endIndex].firstRange(of: name) {
            searchFrom = found.upperBound
            guard found.lowerBound > lower.startIndex, lower[lower.index(before: found.lowerBound)].isWhitespace else { continue }
            var rest = tag[found.upperBound...].drop { $0 == " " }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0 == " " }
            if let quote = rest.first, quote == "\"" || quote == "'" {
                return String(rest.dropFirst().prefix { $0 != quote })
            }
            return String(rest.prefix { !$0.isWhitespace && $0 != ">" })
        }
        return nil
    }
}

extension [SugarCubeItem] {
    /// The text written, elements' included (a `data-passage` link's text): pictures, sounds and notices
    /// are no text.
    var linkText: String {
        map { item in
            switch item {
            case .text(let text): text
            case .element(_, _, let items): items.linkText
            case .link(_, let label): label
            case .image(_, let alt): alt.map(SugarCubeFlattener.escaped) ?? ""
            case .sound, .loop, .notice, .input: ""
            }
        }.joined()
    }

    /// Changes the element `id` (wherever it is): `change` gets what it holds and returns what it holds next.
    /// False when there is no such element.
    mutating func change(element id: String, _ change: ([SugarCubeItem]) -> [SugarCubeItem]?) -> Bool {
        for index in indices {
            guard case .element(let found, let tag, var items) = self[index] else { continue }
            if found == id {
                if let changed = change(items) { self[index] = .element(id: found, tag: tag, items: changed) } else { remove(at: index) }
                return true
            }
            if items.change(element: id, change) {
                self[index] = .element(id: found, tag: tag, items: items)
                return true
            }
        }
        return false
    }

    /// Replaces the link `id` with `replacement` (its text and what follows, or what precedes).
    mutating func replace(link id: Int, with replacement: [SugarCubeItem]) -> Bool {
        for index in indices {
            switch self[index] {
            case .link(let found, _) where found == id:
                replaceSubrange(index...index, with: replacement)
                return true
            case .element(let element, let tag, var items):
                if items.replace(link: id, with: replacement) {
                    self[index] = .element(id: element, tag: tag, items: items)
                    return true
                }
            default: break
            }
        }
        return false
    }

    /// The error notices in the tree (`Error: ...`), in order: what SugarCube's `.error` elements hold.
    var errorNotices: [String] {
        flatMap { item -> [String] in
            switch item {
            case .notice(let text) where text.hasPrefix("Error: "): [text]
            case .element(_, _, let items): items.errorNotices
            default: []
            }
        }
    }

    /// The ids of the input fields in the tree, in order.
    var inputIds: [Int] {
        flatMap { item -> [Int] in
            switch item {
            case .input(let id): [id]
            case .element(_, _, let items): items.inputIds
            default: []
            }
        }
    }

    /// The ids of the links in the tree, in order.
    var linkIds: [Int] {
        flatMap { item -> [Int] in
            switch item {
            case .link(let id, _): [id]
            case .element(_, _, let items): items.linkIds
            default: []
            }
        }
    }
}

/// One line of a moment's text: HTML as Pajama's markup reader reads it, with the picture and sounds on it.
public struct SugarCubeLine: Sendable, Equatable {
    public var text: String
    public var image: String?
    public var imageAlt: String?
    public var sounds: [String]
    /// The background loop set (`.some(source)`) or stopped (`.some(nil)`) on this line.
    public var loop: String??
    /// The input field this line stands for (a line of nothing else, where the page's text stops for it).
    public var input: Int?

    public init(text: String, image: String? = nil, imageAlt: String? = nil, sounds: [String] = [], loop: String?? = nil, input: Int? = nil) {
        self.text = text
        self.image = image
        self.imageAlt = imageAlt
        self.sounds = sounds
        self.loop = loop
        self.input = input
    }
}

enum SugarCubeFlattener {
    /// The lines of `items`: a line per line break; a picture its own line; a line of nothing but links (the
    /// page's choices say them) left out, and empty lines too.
    static func lines(_ items: [SugarCubeItem]) -> [SugarCubeLine] {
        var lines: [SugarCubeLine] = []
        var current = SugarCubeLine(text: "")
        var onlyLinks = true
        var hadLink = false
        var open: [String] = []
        func end() {
            var text = current.text
            for tag in open.reversed() { text += "</\(tag)>" }
            current.text = text
            let visible = visibleText(text)
            let keep = !visible.isEmpty && !(hadLink && onlyLinks)
            if keep || current.image != nil || !current.sounds.isEmpty || current.loop != nil {
                if !keep { current.text = "" }
                lines.append(current)
            }
            current = SugarCubeLine(text: open.map { "<\($0)>" }.joined())
            onlyLinks = true
            hadLink = false
        }
        func write(_ items: [SugarCubeItem]) {
            for item in items {
                switch item {
                case .text(let text):
                    let parts = breaksAsNewlines(text).split(separator: "\n", omittingEmptySubsequences: false)
                    for (index, part) in parts.enumerated() {
                        if index > 0 { end() }
                        current.text += part
                        track(String(part), open: &open)
                        if !visibleText(String(part)).allSatisfy({ $0.isWhitespace || "|·,-/•".contains($0) }) { onlyLinks = false }
                    }
                case .element(_, let tag, let inner):
                    let block = blockElements.contains(SugarCubeWriter.name(of: tag))
                    if block { end() }
                    write(inner)
                    if block { end() }
                case .link(_, let label):
                    current.text += "<u>" + label + "</u>"
                    hadLink = true
                case .image(let source, let alt):
                    if !visibleText(current.text).isEmpty { end() }
                    current.image = source
                    current.imageAlt = alt
                    end()
                case .sound(let source): current.sounds.append(source)
                case .loop(let source): current.loop = .some(source)
                case .notice(let message):
                    current.text += "<span class=\"dim\">[" + escaped(message) + "]</span>"
                    onlyLinks = false
                case .input(let id):
                    // The text before the field is the line that asks (the question page's label).
                    while current.text.last == " " || current.text.last == "\t" { current.text.removeLast() }
                    end()
                    lines.append(SugarCubeLine(text: "", input: id))
                }
            }
        }
        write(items)
        end()
        return lines
    }

    /// The elements a browser shows as blocks: lines of their own.
    static let blockElements: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "table", "tr", "hr", "pre", "center",
        "section", "header", "footer", "article", "aside", "nav", "main", "figure", "dl", "dt", "dd", "form", "fieldset",
    ]

    /// `text` with each `<br>` (`<br/>`, `<BR />`) a line break, and a line break before each block element
    /// and after its end: lines as a browser shows them, so a `nobr` passage written with `<br>`s and `<p>`s
    /// is not one line (its links' line is left out, its last line is the choices' prompt).
    static func breaksAsNewlines(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            if let close = rest[open...].firstIndex(of: ">") {
                let tag = String(rest[open...close])
                let name = SugarCubeWriter.name(of: tag)
                if blockElements.contains(name), !tag.hasPrefix("<<") {
                    out += tag.hasPrefix("</") ? tag + "\n" : "\n" + tag
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            var tag = rest[open...].dropFirst()
            if tag.prefix(2).lowercased() == "br" {
                tag = tag.dropFirst(2).drop { $0 == " " || $0 == "\t" }
                if tag.first == "/" { tag = tag.dropFirst() }
                if tag.first == ">" {
                    out += "\n"
                    rest = tag.dropFirst()
                    continue
                }
            }
            out.append("<")
            rest = rest[rest.index(after: open)...]
        }
        return out + rest
    }

    /// Keeps `open` the formatting tags open after `text` (b, i, u, s, strong, em), so a line break closes
    /// and reopens them.
    static func track(_ text: String, open: inout [String]) {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return }
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "<") {
            guard let close = rest[start...].firstIndex(of: ">") else { break }
            let tag = rest[start...close]
            let name = SugarCubeWriter.name(of: String(tag))
            if ["b", "i", "u", "s", "strong", "em"].contains(name) {
                if tag.hasPrefix("</") {
                    if let at = open.lastIndex(of: name) { open.remove(at: at) }
                } else {
                    open.append(name)
                }
            }
            rest = rest[rest.index(after: close)...]
        }
    }

    /// The text without its tags, trimmed. On the UTF-8 bytes (`<` and `>` are single bytes, never inside a
    /// longer sequence): by Character, this and the line breaks were a third of making a passage's lines.
    static func visibleText(_ text: String) -> String {
        var stripped = text
        if text.utf8.contains(UInt8(ascii: "<")) {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var inTag = false
            for c in text.utf8 {
                if c == UInt8(ascii: "<") { inTag = true } else if c == UInt8(ascii: ">"), inTag { inTag = false } else if !inTag { out.append(c) }
            }
            stripped = String(decoding: out, as: UTF8.self)
        }
        // Trimmed only where it can change anything: an end that is not a plain ASCII letter, digit or mark.
        let bytes = stripped.utf8
        func plain(_ c: UInt8?) -> Bool { c.map { $0 < 0x80 && $0 != 0x20 && !(0x09...0x0D).contains($0) } ?? true }
        guard bytes.contains(UInt8(ascii: "&")) || !plain(bytes.first) || !plain(bytes.last) else { return stripped }
        return stripped.replacing("&nbsp;", with: " ").trimmingWhitespace
    }

    static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
