import FoundationEssentials
import Glibc
import PajamaBasics

/// SugarCube's TwineScript made JavaScript (docs/sugarcube.md, "Expressions"): naked variables (`$gold` is
/// `State.variables.gold`, `_i` is `State.temporary.i`) and the operator words (`to` `=`, `is` `===`, `isnot`
/// `!==`, `eq` `==`, `neq` `!=`, `gt` `>`, `gte` `>=`, `lt` `<`, `lte` `<=`, `and` `&&`, `or` `||`, `not` `!`,
/// `def` `"undefined" !== typeof`, `ndef` `"undefined" === typeof`), as SugarCube's own desugaring does it:
/// outside strings, template literals and comments, never after a `.` (a property) nor before a `:` (a key).
enum SugarCubeScript {
    static let words: [String: String] = [
        "to": "=", "is": "===", "isnot": "!==", "eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=",
        "and": "&&", "or": "||", "not": "!", "def": "\"undefined\" !== typeof", "ndef": "\"undefined\" === typeof",
    ]

    static func isStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "$" }
    static func isPart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "$" }

    /// The JavaScript of the TwineScript `source`.
    static func desugar(_ source: String) -> String {
        let chars = Array(source)
        var out = ""
        out.reserveCapacity(chars.count + 16)
        var i = 0
        var lastSignificant: Character?
        while i < chars.count {
            let c = chars[i]
            if c == "\"" || c == "'" || c == "`" {
                let end = stringEnd(chars, from: i)
                out += String(chars[i..<end])
                i = end
                lastSignificant = c
                continue
            }
            if c == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                while i < chars.count, chars[i] != "\n" { out.append(chars[i]); i += 1 }
                continue
            }
            if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                var j = i + 2
                while j + 1 < chars.count, !(chars[j] == "*" && chars[j + 1] == "/") { j += 1 }
                j = min(chars.count, j + 2)
                out += String(chars[i..<j])
                i = j
                continue
            }
            if isStart(c) {
                var j = i + 1
                while j < chars.count, isPart(chars[j]) { j += 1 }
                let word = String(chars[i..<j])
                let afterDot = lastSignificant == "."
                var k = j
                while k < chars.count, chars[k] == " " || chars[k] == "\t" { k += 1 }
                let beforeColon = k < chars.count && chars[k] == ":" && !(k + 1 < chars.count && chars[k + 1] == ":")
                if !afterDot, (c == "$" || c == "_"), word.count > 1, let second = word.dropFirst().first, second.isLetter || second == "_" || second == "$" {
                    out += (c == "$" ? "State.variables." : "State.temporary.") + word.dropFirst()
                } else if !afterDot, !beforeColon, let replacement = words[word] {
                    out += replacement
                } else {
                    out += word
                }
                lastSignificant = "a"
                i = j
                continue
            }
            out.append(c)
            if !c.isWhitespace { lastSignificant = c }
            i += 1
        }
        return out
    }

    /// The index just past the string literal opening at `start` (a template literal's `${...}` inside).
    static func stringEnd(_ chars: [Character], from start: Int) -> Int {
        let quote = chars[start]
        var i = start + 1
        var depth = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if quote == "`" {
                if c == "$", i + 1 < chars.count, chars[i + 1] == "{" { depth += 1; i += 2; continue }
                if c == "}", depth > 0 { depth -= 1; i += 1; continue }
                if depth > 0, c == "\"" || c == "'" || c == "`" { i = stringEnd(chars, from: i); continue }
            }
            if c == quote, depth == 0 { return i + 1 }
            i += 1
        }
        return chars.count
    }

    /// The JavaScript array of a macro's argument list (SugarCube's macro arguments): strings, numbers,
    /// `true`/`false`/`null`/`undefined`, naked variables, backquoted expressions, `[[links]]` (an object
    /// `{isLink, text, link, setter}`), `[img[...]]`, and bare words (a string, or the global of that name:
    /// `setup`, `settings`...).
    static func argumentList(_ raw: String) -> String {
        let chars = Array(raw)
        var items: [String] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "\"" || c == "'" {
                let end = stringEnd(chars, from: i)
                var literal = String(chars[i..<end])
                if literal.count < 2 || literal.last != c { literal += String(c) }
                items.append(literal)
                i = end
            } else if c == "`" {
                let end = stringEnd(chars, from: i)
                items.append("(" + desugar(String(chars[(i + 1)..<max(i + 1, end - 1)])) + ")")
                i = end
            } else if c == "[", i + 1 < chars.count, chars[i + 1] == "[" || chars[i + 1] == "i" {
                var depth = 0
                var j = i
                while j < chars.count {
                    if chars[j] == "[" { depth += 1 } else if chars[j] == "]" { depth -= 1; if depth == 0 { j += 1; break } }
                    j += 1
                }
                let token = String(chars[i..<min(j, chars.count)])
                if let link = SugarCubeLinkMarkup.parse(token) {
                    items.append("{isLink: true, text: \(quoted(link.text)), link: \(quoted(link.target)), setter: \(link.setter.map(quoted) ?? "null")}")
                } else if let image = SugarCubeLinkMarkup.image(token) {
                    items.append("{isImage: true, source: \(quoted(image.source)), link: \(image.link.map(quoted) ?? "null")}")
                } else {
                    items.append(quoted(token))
                }
                i = j
            } else {
                var j = i
                var depth = 0
                while j < chars.count {
                    let d = chars[j]
                    if d == "(" || d == "[" || d == "{" { depth += 1 } else if d == ")" || d == "]" || d == "}" { depth -= 1 }
                    if depth <= 0, d.isWhitespace { break }
                    if d == "\"" || d == "'" { j = stringEnd(chars, from: j); continue }
                    j += 1
                }
                let word = String(chars[i..<j])
                if word.first == "$" || word.first == "_", word.count > 1 {
                    items.append("(" + desugar(word) + ")")
                } else if ["true", "false", "null", "undefined", "NaN", "Infinity"].contains(word) || Double(word) != nil {
                    items.append(word)
                } else if ["setup", "settings", "State", "Story", "Config"].contains(where: { word == $0 || word.hasPrefix($0 + ".") }) {
                    items.append("(" + word + ")")
                } else {
                    items.append(quoted(word))
                }
                i = j
            }
        }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        // On UTF-8 bytes, into a string made once at its size (every state goes into the engine this way at
        // each passage: appending scalar by scalar was a seventh of a passage's time).
        var text = text
        return text.withUTF8 { input in
            var size = input.count + 2
            for (i, c) in input.enumerated() {
                if c == 0x22 || c == 0x5C || c == 0x0A || c == 0x0D { size += 1 } else if c < 0x20 { size += 5 }
                else if c == 0xE2, i + 2 < input.count, input[i + 1] == 0x80, input[i + 2] == 0xA8 || input[i + 2] == 0xA9 { size += 3 }
            }
            return String(unsafeUninitializedCapacity: size) { out in
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                var n = 0
                func put(_ byte: UInt8) {
                    out[n] = byte
                    n += 1
                }
                put(0x22)
                var i = 0
                while i < input.count {
                    let c = input[i]
                    switch c {
                    case 0x22: put(0x5C); put(0x22)
                    case 0x5C: put(0x5C); put(0x5C)
                    case 0x0A: put(0x5C); put(UInt8(ascii: "n"))
                    case 0x0D: put(0x5C); put(UInt8(ascii: "r"))
                    case 0xE2 where i + 2 < input.count && input[i + 1] == 0x80 && (input[i + 2] == 0xA8 || input[i + 2] == 0xA9):
                        // U+2028 and U+2029 end a line in a JavaScript string literal.
                        for byte in "\\u202".utf8 { put(byte) }
                        put(input[i + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                        i += 2
                    case ..<0x20:
                        for byte in "\\u00".utf8 { put(byte) }
                        put(hex[Int(c >> 4)])
                        put(hex[Int(c & 0xF)])
                    default:
                        put(c)
                    }
                    i += 1
                }
                put(0x22)
                return n
            }
        }
    }
}

/// `[[text|target][setter]]`, `[[text->target]]`, `[[target<-text]]`, `[[target]]`, and `[img[title|src][link]]`.
enum SugarCubeLinkMarkup {
    struct Link: Equatable {
        var text: String
        var target: String
        var setter: String?
        /// `[[target]]` alone: its text is the passage's name, not evaluated as a text (markup/parserlib.js `link`).
        var textIsTarget = false
    }

    /// The link `token` (from `[[` to its `]]`, setter included) is, nil if it is none.
    static func parse(_ token: String) -> Link? {
        guard token.hasPrefix("[["), token.hasSuffix("]]") else { return nil }
        var inner = String(token.dropFirst(2).dropLast(2))
        var setter: String?
        if let split = inner.firstRange(of: "][") {
            setter = String(inner[split.upperBound...])
            inner = String(inner[..<split.lowerBound])
        }
        if let bar = inner.firstIndex(of: "|") {
            return Link(text: String(inner[..<bar]), target: String(inner[inner.index(after: bar)...]), setter: setter)
        }
        if let arrow = inner.ranges(of: "->").last {
            return Link(text: String(inner[..<arrow.lowerBound]), target: String(inner[arrow.upperBound...]), setter: setter)
        }
        if let arrow = inner.firstRange(of: "<-") {
            return Link(text: String(inner[arrow.upperBound...]), target: String(inner[..<arrow.lowerBound]), setter: setter)
        }
        return Link(text: inner, target: inner, setter: setter, textIsTarget: true)
    }

    struct Image: Equatable {
        var title: String?
        var source: String
        var link: String?
        var setter: String?
    }

    /// `[img[src]]`, `[img[title|src]]`, `[img[title|src][link]]`, `[img[src][link][setter]]` (and `[<img[`, `[>img[`).
    static func image(_ token: String) -> Image? {
        var rest = Substring(token)
        guard rest.hasPrefix("[") else { return nil }
        rest = rest.dropFirst()
        if rest.hasPrefix("<") || rest.hasPrefix(">") { rest = rest.dropFirst() }
        guard rest.lowercased().hasPrefix("img[") || rest.lowercased().hasPrefix("image[") else { return nil }
        rest = rest.drop { $0 != "[" }
        guard rest.hasSuffix("]") else { return nil }
        rest = rest.dropLast()
        var parts: [String] = []
        while rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            parts.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        guard let first = parts.first else { return nil }
        var image = Image(source: first)
        if let bar = first.firstIndex(of: "|") {
            image.title = String(first[..<bar])
            image.source = String(first[first.index(after: bar)...])
        }
        if parts.count > 1 { image.link = parts[1] }
        if parts.count > 2 { image.setter = parts[2] }
        return image
    }
}
