import FoundationEssentials
import Glibc
import PajamaBasics

/// SugarCube 2's markup (docs/sugarcube.md, "Markup"): macros `<<name args>>` (containers to their
/// `<</name>>` or `<<endname>>`), `[[links]]` with setters, `[img[...]]`, naked variables, `''bold''`,
/// `//italic//`, `__underline__`, `==strike==`, `^^sup^^`, `~~sub~~`, `--` (an em dash), `----` rules, `!`
/// headings, `*`/`#` lists, `>` quoted lines, `|a|b|` tables, comments (`/* */`, `/% %/`,
/// `<!-- -->`), verbatim text, `\` line joins, and HTML tags passed whole.
struct SugarCubeParser {
    /// The macros that have a body even where their closing tag is missing from the passage.
    static let containers: Set<String> = [
        "if", "switch", "for", "link", "button", "linkreplace", "linkappend", "linkprepend", "nobr", "silently", "script",
        "widget", "capture", "replace", "append", "prepend", "timed", "repeat", "type", "createaudiogroup", "createplaylist",
        "cycle", "listbox", "done", "do", "click",
    ]
    /// The clauses a container holds, by the container's name.
    static let clauses: [String: Set<String>] = [
        "if": ["elseif", "else"], "switch": ["case", "default"], "cycle": ["option", "optionsfrom"],
        "listbox": ["option", "optionsfrom"], "timed": ["next"], "createaudiogroup": ["track"], "createplaylist": ["track"],
    ]

    private let chars: [Character]
    private var i = 0
    private var line = 1
    /// `<html>` elements open: their content is HTML as the browser parses it, where a closing tag with no
    /// element open is dropped (SugarCube's `html` parser sets it as the element's HTML).
    private var htmlDepth = 0
    /// In a table row (`|a|b|`): the index of its last `|`.
    private var tableRowEnd: Int?
    private let containerNames: Set<String>

    /// The child tags of the story's own container macros, by macro.
    private let extraClauses: [String: Set<String>]

    /// The nodes of `source`. `extraContainers`: custom macros known to have bodies (widgets, `Macro.add` with
    /// tags); `extraClauses`: the child tags of such a macro (`tags: ["onchange"]`), which split its body.
    static func parse(_ source: String, extraContainers: Set<String> = [], extraClauses: [String: Set<String>] = [:]) -> [SugarCubeNode] {
        var parser = SugarCubeParser(source, extraContainers: extraContainers, extraClauses: extraClauses)
        return parser.nodes(until: nil, clauseNames: []).nodes
    }

    private init(_ source: String, extraContainers: Set<String>, extraClauses: [String: Set<String>]) {
        self.extraClauses = extraClauses
        chars = Array(source)
        var names = Self.containers.union(extraContainers)
        // Any macro closed somewhere in the passage has a body.
        var index = source.startIndex
        while let found = source[index..<source.endIndex].firstRange(of: "<</") {
            let name = source[found.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            if !name.isEmpty { names.insert(String(name)) }
            index = found.upperBound
        }
        containerNames = names
    }

    private func at(_ text: String, _ offset: Int = 0) -> Bool {
        var j = i + offset
        for c in text {
            guard j < chars.count, chars[j] == c else { return false }
            j += 1
        }
        return true
    }

    private func atLineStart() -> Bool { i == 0 || chars[i - 1] == "\n" }

    /// SugarCube's `table` parser, for a terminal: a line `|a|b|` (ending `|`, or `|` and one of `f h c k`) is
    /// a row, its cells apart by two spaces; `!` starting a cell (a header) is not shown, nor are a merged
    /// cell's `~` and `>`, nor a `k` row (its cells are class names). At a `|`: nil when it is text, else
    /// what it shows (a gap between cells), consumed.
    private mutating func tableCell() -> String? {
        if let end = tableRowEnd {
            guard i <= end else { tableRowEnd = nil; return nil }
            i += 1
            if i - 1 == end {
                if i < chars.count, "fhck".contains(chars[i]) { i += 1 }
                tableRowEnd = nil
                return ""
            }
            skipCellMarks()
            return "  "
        }
        guard atLineStart() else { return nil }
        var j = i + 1
        while j < chars.count, chars[j] != "\n" { j += 1 }
        var last = j - 1
        let kind: Character? = last > i && "fhck".contains(chars[last]) ? chars[last] : nil
        if kind != nil { last -= 1 }
        guard last > i, chars[last] == "|" else { return nil }
        if kind == "k" {
            if j < chars.count { i = j + 1; line += 1 } else { i = j }
            return ""
        }
        tableRowEnd = last
        i += 1
        skipCellMarks()
        return ""
    }

    private mutating func skipCellMarks() {
        guard let end = tableRowEnd, i < end else { return }
        if chars[i] == "!" {
            i += 1
        } else if chars[i] == "~" || chars[i] == ">", i + 1 == end || chars[i + 1] == "|" {
            i += 1
        }
    }

    private mutating func take(_ count: Int) -> String {
        let end = min(chars.count, i + count)
        let text = String(chars[i..<end])
        for c in text where c == "\n" { line += 1 }
        i = end
        return text
    }

    /// Nodes up to the closing tag of `closing` (consumed), or the end. Clause tags of the enclosing container
    /// (`clauseNames`) end the run too: returned with their arguments, not consumed beyond.
    private mutating func nodes(until closing: String?, clauseNames: Set<String>) -> (nodes: [SugarCubeNode], stop: (name: String, arguments: String)?, source: String) {
        var nodes: [SugarCubeNode] = []
        var text = ""
        let start = i
        var styles: [String] = []
        var openTags: [String] = []
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)); text = "" }
        }
        while i < chars.count {
            let c = chars[i]
            if c == "|", let gap = tableCell() { text += gap; continue }
            if c == "<", at("<<") {
                let save = (i, line)
                if let (name, arguments, isClose, length) = macroTag() {
                    let end = i
                    if isClose || (name.hasPrefix("end") && closing == String(name.dropFirst(3))) {
                        let closed = isClose ? name : String(name.dropFirst(3))
                        if closed == closing {
                            flush()
                            let source = String(chars[start..<(end - length)])
                            return (nodes, nil, source)
                        }
                        continue  // a stray closing tag: dropped
                    }
                    if clauseNames.contains(name) || (name == "else" && clauseNames.contains("elseif")) {
                        flush()
                        let source = String(chars[start..<(end - length)])
                        return (nodes, (name, arguments), source)
                    }
                    flush()
                    nodes.append(.macro(macro(name, arguments, line: save.1)))
                    continue
                }
                (i, line) = save
                text += take(2)
                continue
            }
            if c == "[", at("[["), let end = closingBrackets() {
                let token = String(chars[i..<end])
                if let link = SugarCubeLinkMarkup.parse(token) {
                    flush()
                    nodes.append(.link(link))
                    _ = take(end - i)
                    continue
                }
            }
            if c == "[", at("[img[") || at("[<img[") || at("[>img[") || at("[image["), let end = closingBrackets() {
                if let image = SugarCubeLinkMarkup.image(String(chars[i..<end])) {
                    flush()
                    nodes.append(.image(image))
                    _ = take(end - i)
                    continue
                }
            }
            if c == "$" || (c == "_" && !at("__")), let end = variableEnd() {
                flush()
                nodes.append(.variable(String(chars[i..<end])))
                _ = take(end - i)
                continue
            }
            if c == "$", at("$$") { text += "$"; _ = take(2); continue }
            if c == "?", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isLetter {
                // SugarCube's `template` parser: `?name`, a name as `[A-Za-z][\w-]*`.
                var end = i + 2
                while end < chars.count, chars[end].isASCII, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" || chars[end] == "-" { end += 1 }
                flush()
                nodes.append(.template(String(chars[(i + 1)..<end])))
                _ = take(end - i)
                continue
            }
            if c == "/", at("/*"), let end = find("*/", from: i + 2) { _ = take(end + 2 - i); continue }
            if c == "/", at("/%"), let end = find("%/", from: i + 2) { _ = take(end + 2 - i); continue }
            if c == "<", at("<!--"), let end = find("-->", from: i + 4) { _ = take(end + 3 - i); continue }
            if c == "\"", at("\"\"\""), let end = find("\"\"\"", from: i + 3) {
                flush()
                _ = take(3)
                nodes.append(.verbatim(take(end - i)))
                _ = take(3)
                continue
            }
            if c == "{", at("{{{"), let end = find("}}}", from: i + 3) {
                flush()
                _ = take(3)
                nodes.append(.verbatim(take(end - i)))
                _ = take(3)
                continue
            }
            if c == "<", lowerAt("<nowiki>"), let end = lowerFind("</nowiki>", from: i + 8) {
                flush()
                _ = take(8)
                nodes.append(.verbatim(take(end - i)))
                _ = take(9)
                continue
            }
            if c == "<", lowerAt("<script") || lowerAt("<style"), let close = lowerFind(lowerAt("<script") ? "</script>" : "</style>", from: i) {
                _ = take(close - i)
                _ = take(lowerAt("</script>") ? 9 : 8)
                continue
            }
            if c == "<", let end = htmlTagEnd() {
                guard chars[i + 1] == "/" || Self.isOpeningTag(chars[i..<end]) else {
                    // Not a tag to SugarCube (`<if/else>`): its `<` is text, and what follows is read on.
                    flush()
                    nodes.append(.verbatim(take(1)))
                    continue
                }
                let tag = take(end - i)
                let name = Self.tagName(tag)
                if name == "html" {
                    // `<html>...</html>` itself shows nothing (Merchant-Mile's North Gate).
                    if !tag.hasPrefix("</") { htmlDepth += 1 } else if htmlDepth > 0 { htmlDepth -= 1 }
                    continue
                }
                if tag.hasPrefix("</") {
                    // SugarCube's `htmlTag` parser reads an element to its closing tag: a closing tag with no
                    // element of its name open here is no element's, and shows as text (ShipCore's stray `</p>`);
                    // inside `<html>` the browser drops it (Merchant-Mile's `<big><b>Crowl |</big></b>`).
                    guard let open = openTags.lastIndex(of: name) else {
                        flush()
                        if htmlDepth == 0 { nodes.append(.verbatim(tag)) }
                        continue
                    }
                    openTags.removeSubrange(open...)
                } else if !Self.voidTags.contains(name), !tag.hasSuffix("/>") {
                    openTags.append(name)
                }
                flush()
                nodes.append(.tag(tag))
                continue
            }
            if c == "h", at("http://") || at("https://") {
                while i < chars.count, !chars[i].isWhitespace, chars[i] != "<", chars[i] != "\"" { text.append(chars[i]); i += 1 }
                continue
            }
            if c == "\\" {
                // SugarCube's `lineContinuation`: a `\` ending a line (spaces after it allowed) joins it to the next;
                // one starting a line joins it to the one before; a line that is only `\` is nothing.
                var j = i + 1
                while j < chars.count, chars[j] == " " || chars[j] == "\t" { j += 1 }
                if j == chars.count || chars[j] == "\n" { _ = take(min(chars.count, j + 1) - i); continue }
                if atLineStart() { _ = take(1); continue }
            }
            if c == "\n" {
                flush()
                // A line break ends the quote styles ('' // __ ...); an `@@` span runs on to its closing `@@`.
                for style in styles.reversed() where style != "@@" { nodes.append(.tag("</\(style)>")) }
                styles.removeAll { $0 != "@@" }
                _ = take(1)
                if i < chars.count, chars[i] == "\\" { _ = take(1); continue }
                nodes.append(.lineBreak)
                continue
            }
            if atLineStart(), c == "!" {
                var level = 0
                while i < chars.count, chars[i] == "!" { level += 1; i += 1 }
                flush()
                nodes.append(.tag("<b>"))
                styles.append("b")
                continue
            }
            if atLineStart(), c == "*" || c == "#" {
                // A list item: `*`, `**`, `#`... at a line's start, with or without a space after (SugarCube's
                // `list` parser: `**the end**` is an item "the end**").
                while i < chars.count, chars[i] == c { i += 1 }
                while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
                text += c == "*" ? "• " : "· "
                continue
            }
            if atLineStart(), c == ">" {
                // SugarCube's `quoteByLine`: `>`, `>>`... at a line's start quote the line (blockquotes, which
                // a terminal shows as the line itself).
                while i < chars.count, chars[i] == ">" { i += 1 }
                while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
                continue
            }
            if atLineStart(), at("----"), isRuleLine() {
                while i < chars.count, chars[i] == "-" { i += 1 }
                text += "———"
                continue
            }
            if c == "-", at("--") {
                // SugarCube's `emdash` parser: `--` is an em dash wherever it is text.
                text += "—"
                i += 2
                continue
            }
            if let style = styleAt() {
                flush()
                _ = take(2)
                if let open = styles.lastIndex(of: style) {
                    for closingStyle in styles[open...].reversed() { nodes.append(.tag("</\(closingStyle)>")) }
                    styles.removeSubrange(open...)
                } else {
                    styles.append(style)
                    nodes.append(.tag("<\(style)>"))
                }
                continue
            }
            if c == "@", at("@@") {
                flush()
                _ = take(2)
                if styles.last == "@@" {
                    styles.removeLast()
                    nodes.append(.tag("</span>"))
                } else {
                    var style = ""
                    while i < chars.count, chars[i] != ";", chars[i] != "\n", !at("@@") { style.append(chars[i]); i += 1 }
                    if i < chars.count, chars[i] == ";" {
                        i += 1
                        let id = style.hasPrefix("#") ? String(style.dropFirst().prefix { $0 != "." && $0 != " " }) : ""
                        nodes.append(.tag(id.isEmpty ? "<span>" : "<span id=\"\(id)\">"))
                        styles.append("@@")
                    } else {
                        text += style
                    }
                }
                continue
            }
            text.append(c)
            i += 1
        }
        flush()
        for style in styles.reversed() where style != "@@" { nodes.append(.tag("</\(style)>")) }
        return (nodes, nil, String(chars[start..<i]))
    }

    /// Whether the line at `i` is only dashes and white space (SugarCube's `horizontalRule`: `^----+\s*$`).
    private func isRuleLine() -> Bool {
        var j = i
        while j < chars.count, chars[j] == "-" { j += 1 }
        while j < chars.count, chars[j] != "\n" {
            guard chars[j].isWhitespace else { return false }
            j += 1
        }
        return true
    }

    private func styleAt() -> String? {
        guard i + 1 < chars.count, chars[i] == chars[i + 1] else { return nil }
        switch chars[i] {
        case "'": return "b"
        case "/": return "i"
        case "_": return "u"
        case "=": return "s"
        case "^": return "sup"
        case "~": return "sub"
        default: return nil
        }
    }

    private func lowerAt(_ text: String) -> Bool {
        var j = i
        for c in text {
            guard j < chars.count, chars[j].lowercased() == String(c) else { return false }
            j += 1
        }
        return true
    }

    private func lowerFind(_ text: String, from start: Int) -> Int? {
        let pattern = Array(text)
        var j = start
        while j + pattern.count <= chars.count {
            if (0..<pattern.count).allSatisfy({ chars[j + $0].lowercased() == String(pattern[$0]) }) { return j }
            j += 1
        }
        return nil
    }

    private func find(_ text: String, from start: Int) -> Int? {
        let pattern = Array(text)
        var j = start
        while j + pattern.count <= chars.count {
            if chars[j] == pattern[0], (1..<pattern.count).allSatisfy({ chars[j + $0] == pattern[$0] }) { return j }
            j += 1
        }
        return nil
    }

    /// The end of the `[[...]]` or `[img[...]]` at `i` (its setter too), nil when it is not closed on its line.
    private func closingBrackets() -> Int? {
        var depth = 0
        var j = i
        while j < chars.count {
            let c = chars[j]
            if c == "\n" { return nil }
            if c == "[" { depth += 1 } else if c == "]" {
                depth -= 1
                if depth == 0 {
                    if j + 1 < chars.count, chars[j + 1] == "[" { j += 1; continue }
                    return j + 1
                }
            }
            j += 1
        }
        return nil
    }

    /// The end of a naked variable at `i`: `$name` then `.name`, `[number]`, `["key"]`, `[$var]`.
    private func variableEnd() -> Int? {
        var j = i + 1
        guard j < chars.count, chars[j].isLetter || chars[j] == "_" || chars[j] == "$" else { return nil }
        if chars[i] == "_", i > 0, SugarCubeScript.isPart(chars[i - 1]) { return nil }
        if chars[i] == "$", i > 0, SugarCubeScript.isPart(chars[i - 1]) { return nil }
        while j < chars.count, SugarCubeScript.isPart(chars[j]) { j += 1 }
        while j < chars.count {
            if chars[j] == ".", j + 1 < chars.count, chars[j + 1].isLetter || chars[j + 1] == "_" {
                j += 1
                while j < chars.count, SugarCubeScript.isPart(chars[j]) { j += 1 }
            } else if chars[j] == "[", let close = chars[j...].firstIndex(of: "]"), close - j < 64, !chars[j..<close].contains("\n"), !chars[(j + 1)..<close].contains("[") {
                j = close + 1
            } else {
                break
            }
        }
        return j
    }

    /// The end of the HTML tag at `i` (`<name ...>`, `</name>`), nil for a `<` that starts none.
    /// HTML's void elements: they have no closing tag.
    static let voidTags: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    /// An HTML tag's element name, lower-cased (`<P class=x>`, `</p>`: "p").
    static func tagName(_ tag: String) -> String {
        tag.drop { $0 == "<" || $0 == "/" }.prefix { $0.isLetter || $0.isNumber || $0 == "-" }.lowercased()
    }

    /// Whether `tag` (`<` to `>`) is an opening tag as SugarCube's `htmlTag` parser matches one: a name, then
    /// attributes each after white space (`name`, `name=value`, `name="value"`), then `>` or `/>`; anything else
    /// (`<if/else>`) is text.
    static func isOpeningTag(_ tag: ArraySlice<Character>) -> Bool {
        var j = tag.startIndex + 1
        func isNameCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" }
        guard j < tag.endIndex, tag[j].isLetter else { return false }
        while j < tag.endIndex, isNameCharacter(tag[j]) { j += 1 }
        while j < tag.endIndex {
            let spaced = tag[j].isWhitespace
            while j < tag.endIndex, tag[j].isWhitespace { j += 1 }
            guard j < tag.endIndex else { return false }
            if tag[j] == ">" { return j == tag.endIndex - 1 }
            if tag[j] == "/" { return j + 1 == tag.endIndex - 1 && tag[j + 1] == ">" }
            guard spaced else { return false }
            let attributeStart = j
            while j < tag.endIndex, !tag[j].isWhitespace, !"\"'>/=".contains(tag[j]), !(tag[j].asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) { j += 1 }
            guard j > attributeStart else { return false }
            var k = j
            while k < tag.endIndex, tag[k].isWhitespace { k += 1 }
            guard k < tag.endIndex, tag[k] == "=" else { continue }
            k += 1
            while k < tag.endIndex, tag[k].isWhitespace { k += 1 }
            guard k < tag.endIndex else { return false }
            if tag[k] == "\"" || tag[k] == "'" {
                let quote = tag[k]
                k += 1
                while k < tag.endIndex, tag[k] != quote { k += 1 }
                guard k < tag.endIndex else { return false }
                k += 1
            } else {
                let valueStart = k
                while k < tag.endIndex, !tag[k].isWhitespace, !"\"'=<>`".contains(tag[k]) { k += 1 }
                guard k > valueStart else { return false }
            }
            j = k
        }
        return false
    }

    private func htmlTagEnd() -> Int? {
        var j = i + 1
        if j < chars.count, chars[j] == "/" { j += 1 }
        guard j < chars.count, chars[j].isLetter else { return nil }
        var quote: Character?
        while j < chars.count {
            let c = chars[j]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { return j + 1 } else if c == "<" { return nil }
            j += 1
        }
        return nil
    }

    /// The macro tag at `i` (`<<name args>>`, `<</name>>`): consumed, with its length; nil when `<<` starts none.
    private mutating func macroTag() -> (name: String, arguments: String, isClose: Bool, length: Int)? {
        let start = i
        var j = i + 2
        var isClose = false
        if j < chars.count, chars[j] == "/" { isClose = true; j += 1 }
        var name = ""
        if j < chars.count, chars[j] == "=" || chars[j] == "-" {
            name = String(chars[j])
            j += 1
        } else {
            while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == "-" { name.append(chars[j]); j += 1 }
        }
        guard !name.isEmpty, name.first?.isLetter == true || name == "=" || name == "-" else { return nil }
        // The arguments run to the first `>>` outside a comment, a quoted string or a `[[link]]`, as
        // SugarCube's macro pattern (markup/parserlib.js, `macro`'s lookahead) reads them: a quote never
        // closed, or a comment never ended, is an ordinary character.
        let argumentsStart = j
        while j < chars.count {
            if chars[j] == ">", j + 1 < chars.count, chars[j + 1] == ">" {
                let arguments = String(chars[argumentsStart..<j])
                _ = take(j + 2 - start)
                if name == "else", arguments.trimmingSpaces.hasPrefix("if ") {
                    return ("elseif", String(arguments.trimmingSpaces.dropFirst(3)), false, j + 2 - start)
                }
                return (name, arguments.trimmingWhitespace, isClose, j + 2 - start)
            }
            j = argumentTokenEnd(from: j) ?? j + 1
        }
        return nil
    }

    /// The end of the comment, quoted string or `[[...]]` / `[img[...]]` starting at `j` in a macro's
    /// arguments (SugarCube's macro pattern), nil when none starts there.
    private func argumentTokenEnd(from j: Int) -> Int? {
        let c = chars[j]
        let next: Character? = j + 1 < chars.count ? chars[j + 1] : nil
        if c == "/", next == "*" {
            var k = j + 2
            while k + 1 < chars.count {
                if chars[k] == "*", chars[k + 1] == "/" { return k + 2 }
                k += 1
            }
            return nil
        }
        if c == "/", next == "/" {
            var k = j + 2
            while k < chars.count, chars[k] != "\n" { k += 1 }
            return k < chars.count ? k + 1 : nil
        }
        if c == "\"" || c == "'" || c == "`" {
            var k = j + 1
            while k < chars.count {
                if chars[k] == "\\" { k += 2; continue }
                if chars[k] == c { return k + 1 }
                k += 1
            }
            return nil
        }
        if c == "[" {
            var k = j + 1
            let image = k < chars.count && (chars[k] == "<" || chars[k] == ">") ? k + 1 : k
            if image + 3 < chars.count, String(chars[image..<(image + 3)]).lowercased() == "img", chars[image + 3] == "[" { k = image + 3 }
            guard k < chars.count, chars[k] == "[" else { return nil }
            k += 1
            while k + 1 < chars.count, chars[k] != "\n", chars[k] != "\r" {
                if chars[k] == "]", chars[k + 1] == "]" {
                    k += 2
                    while k < chars.count, chars[k] == "]" { k += 1 }
                    return k
                }
                k += 1
            }
            return nil
        }
        return nil
    }

    /// The macro `name` just read: its body and clauses when it is a container.
    private mutating func macro(_ name: String, _ arguments: String, line: Int) -> SugarCubeMacro {
        guard containerNames.contains(name) else {
            return SugarCubeMacro(name: name, clauses: [.init(name: name, arguments: arguments, body: [], source: "")], isContainer: false, line: line)
        }
        if name == "script" {
            let end = find("<</script>>", from: i) ?? chars.count
            let source = take(end - i)
            _ = take(11)
            return SugarCubeMacro(name: name, clauses: [.init(name: name, arguments: arguments, body: [], source: source)], isContainer: true, line: line)
        }
        let clauseNames = Self.clauses[name] ?? extraClauses[name] ?? []
        var clauses: [SugarCubeMacro.Clause] = []
        var current = (name: name, arguments: arguments)
        while true {
            let (body, stop, source) = nodes(until: name, clauseNames: clauseNames)
            clauses.append(.init(name: current.name, arguments: current.arguments, body: body, source: source))
            guard let stop else { break }
            current = stop
        }
        return SugarCubeMacro(name: name, clauses: clauses, isContainer: true, line: line)
    }
}
