/// Parses a passage's Harlowe markup into nodes (docs/twine.md, "Harlowe"). Never fails: markup that does not
/// parse is text, a macro whose arguments do not parse carries its error (shown as a notice where it is).
struct HarloweParser {
    let s: [Unicode.Scalar]
    var i = 0
    /// Nesting of hooks and collapses, against a passage that nests without end.
    private var depth = 0
    static let maximumDepth = 200
    /// What ends the nodes being read (the hook or collapse around them, nil for the passage): an unclosed hook
    /// (`[==`) goes on to there.
    private var enclosing: Closer?

    init(_ source: String) { s = Array(source.unicodeScalars) }

    static func parse(_ source: String) -> [HarloweNode] {
        var parser = HarloweParser(source)
        return parser.nodes(until: nil)
    }

    private enum Closer { case hook, collapse }

    private func at(_ text: String, _ offset: Int = 0) -> Bool {
        var k = i + offset
        for scalar in text.unicodeScalars {
            guard k < s.count, s[k] == scalar else { return false }
            k += 1
        }
        return true
    }

    private var atLineStart: Bool { i == 0 || s[i - 1] == "\n" }

    private func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(s[range])) }

    static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-"
    }

    private static func isWordScalar(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" }

    private mutating func nodes(until closer: Closer?) -> [HarloweNode] {
        var out: [HarloweNode] = []
        var buffer = ""
        func flush() {
            if !buffer.isEmpty { out.append(.text(buffer)); buffer = "" }
        }
        depth += 1
        let outer = enclosing
        enclosing = closer
        defer { depth -= 1; enclosing = outer }
        while i < s.count {
            let c = s[i]
            if closer == .hook, c == "]" { break }
            if closer == .collapse, c == "}" { break }
            if atLineStart, let block = lineStartBlock() {
                flush()
                out.append(contentsOf: block)
                continue
            }
            switch c {
            case "\n":
                flush()
                if i + 1 < s.count, s[i + 1] == "\\" { i += 2; continue }  // a line continued
                out.append(.newline)
                i += 1
            case "\\" where i + 1 < s.count && s[i + 1] == "\n":
                i += 2
            case "[" where at("[[") && !at("[[["):
                if let link = link() { flush(); out.append(link) } else { buffer.unicodeScalars.append(c); i += 1 }
            case "[" where at("[=") && depth < Self.maximumDepth:
                flush()
                out.append(.hook(unclosedHook(name: nil, hidden: false)))
            case "[":
                guard depth < Self.maximumDepth, closes(from: i) else { buffer.unicodeScalars.append(c); i += 1; continue }
                flush()
                out.append(.hook(hook(name: nil, hidden: false)))
            case "|":
                if let named = namedHookOpening() { flush(); out.append(.hook(named)) } else { buffer.unicodeScalars.append(c); i += 1 }
            case "(":
                if let call = macroCall() { flush(); out.append(.macro(call)) } else { buffer.unicodeScalars.append(c); i += 1 }
            case "$":
                if let variable = proseVariable(temp: false) { flush(); out.append(attaching(variable)) } else { buffer.unicodeScalars.append(c); i += 1 }
            case "_" where i == 0 || !Self.isWordScalar(s[i - 1]):
                if let variable = proseVariable(temp: true) { flush(); out.append(attaching(variable)) } else { buffer.unicodeScalars.append(c); i += 1 }
            case "'" where at("''"):
                flush(); out.append(.toggle(.bold)); i += 2
            case "/" where at("//") && !(i > 0 && s[i - 1] == ":"):
                flush(); out.append(.toggle(.italic)); i += 2
            case "*" where at("**"):
                flush(); out.append(.toggle(.strong)); i += 2
            case "*" where i + 1 < s.count && !s[i + 1].properties.isWhitespace:
                flush(); out.append(.toggle(.em)); i += 1
            case "*" where i > 0 && !s[i - 1].properties.isWhitespace:
                flush(); out.append(.toggle(.em)); i += 1
            case "~" where at("~~"):
                flush(); out.append(.toggle(.strike)); i += 2
            case "^" where at("^^"):
                flush(); out.append(.toggle(.sup)); i += 2
            case "`":
                flush(); out.append(.verbatim(verbatim()))
            case "{":
                guard depth < Self.maximumDepth else { buffer.unicodeScalars.append(c); i += 1; continue }
                flush()
                i += 1
                let inner = nodes(until: .collapse)
                if i < s.count { i += 1 }
                out.append(.collapse(inner))
            case "<" where at("<!--"):
                flush()
                let start = i + 4
                skipPast("-->")
                if text(start..<max(start, i - 3)).trimmingSpacesAndLines().lowercased() == "page" { out.append(.pageBreak) }
            case "<" where i + 1 < s.count && (s[i + 1].properties.isAlphabetic || s[i + 1] == "/"):
                if let tag = htmlTag() { flush(); out.append(contentsOf: tag) } else { buffer.unicodeScalars.append(c); i += 1 }
            default:
                buffer.unicodeScalars.append(c)
                i += 1
            }
        }
        flush()
        return out
    }

    /// Markup that only means something at the start of a line: headings, rules, bullets, alignment markers.
    private mutating func lineStartBlock() -> [HarloweNode]? {
        var k = i
        while k < s.count, s[k] == " " || s[k] == "\t" { k += 1 }
        var end = k
        while end < s.count, s[end] != "\n" { end += 1 }
        let line = text(k..<end).trimmingTrailingSpaces()
        if line.count >= 3, line.allSatisfy({ $0 == "-" }) {
            i = end
            return [.rule]
        }
        // Aligners (`==>`, `=><=`, `<==>`): the text after is aligned. Column markers (`=|||=`, `|==`): the
        // text stays, its placement does not.
        if !line.isEmpty, line.allSatisfy({ $0 == "=" || $0 == "<" || $0 == ">" || $0 == "|" || $0 == " " }), line.contains("=") {
            // The marker's line is no line of the text: its line break goes with it.
            i = end < s.count ? end + 1 : end
            return HarloweStyle.alignment(line).map { [.aligner($0)] } ?? []
        }
        if s[k...].starts(with: "#".unicodeScalars), k == i {
            var level = 0
            while k + level < s.count, s[k + level] == "#" { level += 1 }
            if level <= 6 {
                i = k + level
                while i < s.count, s[i] == " " { i += 1 }
                var inner = HarloweParser(text(i..<end))
                let body = inner.nodes(until: nil)
                i = end
                return [.heading(body)]
            }
        }
        if k == i, at("* ") {
            i += 2
            return [.bullet]
        }
        return nil
    }

    /// Whether the `[` at `start` has its `]` (nesting followed; an unclosed hook's `[=` needs none); one without
    /// is text.
    private func closes(from start: Int) -> Bool {
        var level = 0
        var k = start
        while k < s.count {
            if s[k] == "[" {
                if k > start, k + 1 < s.count, s[k + 1] == "=" { k += 1; continue }
                level += 1
            } else if s[k] == "]" {
                level -= 1
                if level == 0 { return true }
            }
            k += 1
        }
        return false
    }

    private mutating func skipPast(_ end: String) {
        while i < s.count, !at(end) { i += 1 }
        i = min(s.count, i + end.unicodeScalars.count)
    }

    private mutating func verbatim() -> String {
        var ticks = 0
        while i < s.count, s[i] == "`" { ticks += 1; i += 1 }
        let start = i
        let closing = String(repeating: "`", count: ticks)
        while i < s.count, !at(closing) { i += 1 }
        let body = text(start..<i)
        i = min(s.count, i + ticks)
        return body
    }

    private mutating func link() -> HarloweNode? {
        var k = i + 2
        while k + 1 < s.count, !(s[k] == "]" && s[k + 1] == "]") {
            if s[k] == "\n" { return nil }
            k += 1
        }
        guard k + 1 < s.count else { return nil }
        let content = text((i + 2)..<k)
        i = k + 2
        if let arrow = content.ranges(of: "->").last {
            return .link(label: String(content[..<arrow.lowerBound]), target: String(content[arrow.upperBound...]))
        }
        if let arrow = content.firstRange(of: "<-") {
            return .link(label: String(content[arrow.upperBound...]), target: String(content[..<arrow.lowerBound]))
        }
        if let bar = content.ranges(of: "|").last {
            return .link(label: String(content[..<bar.lowerBound]), target: String(content[bar.upperBound...]))
        }
        return .link(label: content, target: content)
    }

    /// A hook from its `[`: its body, and a name written after it (`]<name|`, `](name|`).
    private mutating func hook(name: String?, hidden: Bool) -> HarloweHook {
        i += 1
        let start = i
        let body = nodes(until: .hook)
        let source = text(start..<min(i, s.count))
        if i < s.count { i += 1 }
        var name = name
        var hidden = hidden
        if name == nil, i < s.count, s[i] == "<" || s[i] == "(" {
            var k = i + 1
            while k < s.count, Self.isNameScalar(s[k]) { k += 1 }
            if k > i + 1, k < s.count, s[k] == "|" {
                hidden = s[i] == "("
                name = text((i + 1)..<k)
                i = k + 1
            }
        }
        return HarloweHook(name: name?.lowercased(), hidden: hidden, body: body, source: source)
    }

    /// `[=` (or `[==`...) at `i`: Harlowe 3.3's unclosed hook, holding the rest of the passage or of the hook
    /// around it.
    private mutating func unclosedHook(name: String?, hidden: Bool) -> HarloweHook {
        i += 1
        while i < s.count, s[i] == "=" { i += 1 }
        let start = i
        let body = nodes(until: enclosing)
        return HarloweHook(name: name?.lowercased(), hidden: hidden, body: body, source: text(start..<min(i, s.count)))
    }

    /// `|name>[` or `|name)[` at `i` (or an unclosed `|name>[=`): the hook; nil when it is not one (the `|` is text).
    private mutating func namedHookOpening() -> HarloweHook? {
        var k = i + 1
        while k < s.count, Self.isNameScalar(s[k]) { k += 1 }
        if k > i + 1, k + 2 < s.count, s[k] == ">" || s[k] == ")", s[k + 1] == "[", s[k + 2] == "=", depth < Self.maximumDepth {
            let name = text((i + 1)..<k)
            let hidden = s[k] == ")"
            i = k + 1
            return unclosedHook(name: name, hidden: hidden)
        }
        guard k > i + 1, k + 1 < s.count, s[k] == ">" || s[k] == ")", s[k + 1] == "[", depth < Self.maximumDepth, closes(from: k + 1) else { return nil }
        let name = text((i + 1)..<k)
        let hidden = s[k] == ")"
        i = k + 1
        return hook(name: name, hidden: hidden)
    }

    /// `(name: ...)` at `i`, with the hook after it; nil when the `(` starts no macro.
    private mutating func macroCall() -> HarloweMacroCall? {
        var k = i + 1
        while k < s.count, Self.isNameScalar(s[k]) { k += 1 }
        guard k > i + 1, k < s.count, s[k] == ":" else { return nil }
        let written = text((i + 1)..<k)
        var expressions = HarloweExpressionParser(s, at: k + 1)
        let arguments = expressions.arguments()
        i = expressions.i
        var call = HarloweMacroCall(name: HarloweMacroCall.normalise(written), written: written, arguments: arguments)
        var k2 = i
        while k2 < s.count, s[k2] == " " || s[k2] == "\t" { k2 += 1 }
        let saved = i
        // Changers added with `+` before a hook: `(align: "<==")+(box: "=XX=")[...]` is one changer, their sum.
        if k2 < s.count, s[k2] == "+" {
            var k3 = k2 + 1
            while k3 < s.count, s[k3] == " " || s[k3] == "\t" { k3 += 1 }
            if k3 < s.count, s[k3] == "(" {
                i = k3
                if let next = macroCall(), let hook = next.hook {
                    call.joined = [HarloweMacroCall(name: next.name, written: next.written, arguments: next.arguments)] + next.joined
                    call.hook = hook
                    return call
                }
                i = saved
            }
        }
        // The hook attached: after spaces, `[` (not a link's `[[`), `|name>[` or `|name)[`.
        i = k2
        if at("[="), depth < Self.maximumDepth {
            call.hook = unclosedHook(name: nil, hidden: false)
        } else if i < s.count, s[i] == "[", !at("[[") || at("[[["), depth < Self.maximumDepth, closes(from: i) {
            call.hook = hook(name: nil, hidden: false)
        } else if i < s.count, s[i] == "|", let named = namedHookOpening() {
            call.hook = named
        } else {
            i = saved
        }
        return call
    }

    /// A variable in prose, with the hook right after it when there is one (`$robotText[...]`: its changer
    /// applies to the hook, as a macro's would).
    private mutating func attaching(_ variable: HarloweExpr) -> HarloweNode {
        guard depth < Self.maximumDepth else { return .variable(variable) }
        if at("[=") { return .attached(variable, unclosedHook(name: nil, hidden: false)) }
        if i < s.count, s[i] == "[", !at("[["), closes(from: i) { return .attached(variable, hook(name: nil, hidden: false)) }
        return .variable(variable)
    }

    /// `$name` or `_name` in prose, with `'s` properties; nil when no name follows (`$5`).
    private mutating func proseVariable(temp: Bool) -> HarloweExpr? {
        guard i + 1 < s.count, s[i + 1].properties.isAlphabetic || s[i + 1] == "_" else { return nil }
        var expressions = HarloweExpressionParser(s, at: i)
        guard let expression = expressions.proseVariable() else { return nil }
        i = expressions.i
        return expression
    }

    /// An HTML tag: a comment, `<script>`/`<style>` (dropped with their content), or a tag kept as written.
    private mutating func htmlTag() -> [HarloweNode]? {
        var k = i + 1
        if s[k] == "/" { k += 1 }
        let nameStart = k
        while k < s.count, s[k].properties.isAlphabetic || ("0"..."9").contains(s[k]) || s[k] == "-" { k += 1 }
        guard k > nameStart else { return nil }
        let name = text(nameStart..<k).lowercased()
        var quote: Unicode.Scalar?
        while k < s.count {
            if let open = quote {
                if s[k] == open { quote = nil }
            } else if s[k] == "\"" || s[k] == "'" {
                quote = s[k]
            } else if s[k] == ">" {
                break
            } else if s[k] == "\n" && quote == nil && k - i > 2000 {
                return nil
            }
            k += 1
        }
        guard k < s.count else { return nil }
        let tag = text(i..<(k + 1))
        i = k + 1
        if (name == "script" || name == "style") && !tag.hasPrefix("</") {
            skipPast("</\(name)>")
            return []
        }
        return [.html(tag)]
    }
}

extension String {
    func trimmingSpacesAndLines() -> String {
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }

    func trimmingTrailingSpaces() -> String {
        var result = self
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result.removeLast() }
        return result
    }
}
