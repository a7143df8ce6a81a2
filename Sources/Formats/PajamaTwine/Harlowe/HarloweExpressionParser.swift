/// Parses the arguments of a macro (`HarloweParser.macroCall`): Harlowe's values and operators, from
/// lowest to highest precedence `,` / `to`, `into` / `or` / `and` / `is`, `is not` / `contains`,
/// `does not contain`, `is in`, `is not in` / `< > <= >=` / `+ -` / `* / %` / `not`, unary `-`, `...` /
/// `'s`, `of`. A comparison's subject may be left out after `and`/`or` (`$a is 3 or 4`).
struct HarloweExpressionParser {
    let s: [Unicode.Scalar]
    var i: Int
    private var depth = 0

    init(_ scalars: [Unicode.Scalar], at index: Int) {
        s = scalars
        i = index
    }

    private enum Token: Equatable {
        case number(Double), string(String), variable(String), temp(String), hookName(String), word(String), symbol(String)
        case macro(String), open, close, comma, end
    }

    /// The arguments up to the macro's `)` (consumed).
    mutating func arguments() -> Result<[HarloweExpr], HarloweSyntaxError> {
        var result: [HarloweExpr] = []
        do throws(HarloweSyntaxError) {
            if peek() == .close { _ = next(); return .success([]) }
            while true {
                result.append(try assignment())
                switch next() {
                case .comma: if peek() == .close { _ = next(); return .success(result) }
                case .close: return .success(result)
                case .end: throw HarloweSyntaxError(message: "the macro has no closing \")\"")
                case let other: throw HarloweSyntaxError(message: "unexpected \(describe(other))")
                }
            }
        } catch {
            skipToClose()
            return .failure(error)
        }
    }

    /// `$name's property...` in prose (at `$` or `_`).
    mutating func proseVariable() -> HarloweExpr? {
        guard let first = try? primaryToken(next()) else { return nil }
        var expression = first
        while i + 2 < s.count, s[i] == "'", s[i + 1] == "s", s[i + 2] == " ", i + 3 < s.count,
            s[i + 3].properties.isAlphabetic || ("0"..."9").contains(s[i + 3])
        {
            let saved = i
            i += 3
            guard case .word(let name) = next(), !name.isEmpty else { i = saved; break }
            expression = .property(expression, .name(name))
        }
        return expression
    }

    /// Skips to the `)` that closes the macro (strings and nesting followed), after a syntax error.
    private mutating func skipToClose() {
        var level = 0
        var quote: Unicode.Scalar?
        while i < s.count {
            let c = s[i]
            i += 1
            if let open = quote {
                if c == "\\" { i += 1 } else if c == open { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "(": level += 1
            case ")":
                if level == 0 { return }
                level -= 1
            default: break
            }
        }
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .number(let n): "the number \(HarloweValue.format(n))"
        case .string(let t): "the string \"\(t)\""
        case .variable(let n): "$\(n)"
        case .temp(let n): "_\(n)"
        case .hookName(let n): "?\(n)"
        case .word(let w): "\"\(w)\""
        case .symbol(let sym): "\"\(sym)\""
        case .macro(let n): "(\(n):"
        case .open: "\"(\""
        case .close: "\")\""
        case .comma: "\",\""
        case .end: "the end of the passage"
        }
    }

    // MARK: Tokens

    private mutating func peek() -> Token {
        let saved = i
        let token = next()
        i = saved
        return token
    }

    private mutating func peekWords(_ count: Int) -> [Token] {
        let saved = i
        var tokens: [Token] = []
        for _ in 0..<count { tokens.append(next()) }
        i = saved
        return tokens
    }

    private static func isWord(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" }

    private mutating func next() -> Token {
        while i < s.count, s[i].properties.isWhitespace { i += 1 }
        guard i < s.count else { return .end }
        let c = s[i]
        switch c {
        case ")": i += 1; return .close
        case ",": i += 1; return .comma
        case "(":
            var k = i + 1
            while k < s.count, Self.isWord(s[k]) { k += 1 }
            if k > i + 1, k < s.count, s[k] == ":" {
                let name = String(String.UnicodeScalarView(s[(i + 1)..<k]))
                i = k + 1
                return .macro(name)
            }
            i += 1
            return .open
        case "\"", "'":
            if c == "'", i + 1 < s.count, s[i + 1] == "s", i > 0, !s[i - 1].properties.isWhitespace,
                i + 2 >= s.count || !Self.isWord(s[i + 2]) || s[i + 2] == "-"
            {
                i += 2
                return .symbol("'s")
            }
            i += 1
            var text = ""
            while i < s.count, s[i] != c {
                if s[i] == "\\", i + 1 < s.count {
                    i += 1
                    switch s[i] {
                    case "n": text += "\n"
                    case "t": text += "\t"
                    default: text.unicodeScalars.append(s[i])
                    }
                } else {
                    text.unicodeScalars.append(s[i])
                }
                i += 1
            }
            i = min(s.count, i + 1)
            return .string(text)
        case "#":
            // A colour written bare: `#a4e`, `#691212`.
            var k = i + 1
            while k < s.count, s[k].properties.isASCIIHexDigit { k += 1 }
            guard k - i - 1 == 3 || k - i - 1 == 6 else { i += 1; return .symbol("#") }
            let word = String(String.UnicodeScalarView(s[i..<k])).lowercased()
            i = k
            return .word(word)
        case "$", "_", "?":
            var k = i + 1
            while k < s.count, s[k].properties.isAlphabetic || ("0"..."9").contains(s[k]) || s[k] == "_" { k += 1 }
            // A name holds a letter (Harlowe's `validPropertyName`): `(_____)` and `$5` are text, not variables.
            guard k > i + 1, s[(i + 1)..<k].contains(where: { $0.properties.isAlphabetic }) else { i += 1; return .symbol(String(c)) }
            let name = String(String.UnicodeScalarView(s[(i + 1)..<k]))
            i = k
            return c == "$" ? .variable(name) : c == "_" ? .temp(name) : .hookName(name.lowercased())
        case "0"..."9":
            var k = i
            while k < s.count, ("0"..."9").contains(s[k]) || (s[k] == "." && k + 1 < s.count && ("0"..."9").contains(s[k + 1])) { k += 1 }
            let digits = String(String.UnicodeScalarView(s[i..<k]))
            var end = k
            while end < s.count, s[end].properties.isAlphabetic { end += 1 }
            let suffix = String(String.UnicodeScalarView(s[k..<end])).lowercased()
            let value = Double(digits) ?? 0
            switch suffix {
            case "": i = k; return .number(value)
            case "s": i = end; return .number(value * 1000)
            case "ms": i = end; return .number(value)
            default:
                while end < s.count, Self.isWord(s[end]) { end += 1 }
                let word = String(String.UnicodeScalarView(s[i..<end])).lowercased()
                i = end
                return .word(word)
            }
        default:
            if c.properties.isAlphabetic {
                var k = i
                while k < s.count, Self.isWord(s[k]) { k += 1 }
                let word = String(String.UnicodeScalarView(s[i..<k]))
                i = k
                return .word(word)
            }
            for symbol in ["...", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "<", ">", "=", "["] where at(symbol) {
                i += symbol.unicodeScalars.count
                return .symbol(symbol)
            }
            i += 1
            return .symbol(String(c))
        }
    }

    private func at(_ text: String) -> Bool {
        var k = i
        for scalar in text.unicodeScalars {
            guard k < s.count, s[k] == scalar else { return false }
            k += 1
        }
        return true
    }

    private func isWord(_ token: Token, _ word: String) -> Bool {
        if case .word(let w) = token { return w.lowercased() == word }
        return false
    }

    // MARK: Grammar

    private mutating func assignment() throws(HarloweSyntaxError) -> HarloweExpr {
        depth += 1
        defer { depth -= 1 }
        guard depth < 100 else { throw HarloweSyntaxError(message: "the expression nests too deeply") }
        if startsLambda() { return lambda() }
        let left = try or()
        if isWord(peek(), "to") {
            _ = next()
            return .assignment(target: left, value: startsLambda() ? lambda() : try or(), into: false)
        }
        if isWord(peek(), "into") {
            _ = next()
            return .assignment(target: try or(), value: left, into: true)
        }
        return left
    }

    /// Whether a lambda starts here (`_x where`, `_x via`, `_x making`, `each`, `where`, `via`, and `when`, the
    /// condition of `(event:)`).
    private mutating func startsLambda() -> Bool {
        let words = peekWords(2)
        if case .temp = words[0], isWord(words[1], "where") || isWord(words[1], "via") || isWord(words[1], "making") { return true }
        return isWord(words[0], "each") || isWord(words[0], "where") || isWord(words[0], "via") || isWord(words[0], "when")
    }

    /// A lambda (`_x where _x > 2`): its source, up to the next `,` or `)` at its level.
    private mutating func lambda() -> HarloweExpr {
        let start = i
        var level = 0
        var quote: Unicode.Scalar?
        while i < s.count {
            if let open = quote {
                if s[i] == "\\" { i += 1 } else if s[i] == open { quote = nil }
                i += 1
                continue
            }
            // A quote starts a string, but not the `'s` of a property (`_item's name`).
            let possessive = s[i] == "'" && i > 0 && !s[i - 1].properties.isWhitespace && i + 1 < s.count && s[i + 1] == "s"
            if s[i] == "\"" || (s[i] == "'" && !possessive) { quote = s[i] }
            if s[i] == "(" { level += 1 }
            if s[i] == ")" { if level == 0 { break }; level -= 1 }
            if s[i] == ",", level == 0 { break }
            i += 1
        }
        return .lambda(String(String.UnicodeScalarView(s[start..<i])).trimmingTrailingSpaces())
    }

    private mutating func or() throws(HarloweSyntaxError) -> HarloweExpr {
        var left = try and()
        while isWord(peek(), "or") {
            _ = next()
            left = .binary("or", left, Self.elided(left, try and()))
        }
        return left
    }

    private mutating func and() throws(HarloweSyntaxError) -> HarloweExpr {
        var left = try equality()
        while isWord(peek(), "and") {
            _ = next()
            left = .binary("and", left, Self.elided(left, try equality()))
        }
        return left
    }

    /// `$a is 3 or 4` is `$a is 3 or $a is 4`: a right side that is no comparison takes the left's.
    private static func elided(_ left: HarloweExpr, _ right: HarloweExpr) -> HarloweExpr {
        if right.isComparison { return right }
        switch right {
        case .not, .binary("and", _, _), .binary("or", _, _), .literal(.bool): return right
        default: break
        }
        var last = left
        while case .binary(let op, _, let r) = last, op == "and" || op == "or" { last = r }
        if case .binary(let op, let subject, _) = last, HarloweExpr.comparisons.contains(op) { return .binary(op, subject, right) }
        return right
    }

    private mutating func equality() throws(HarloweSyntaxError) -> HarloweExpr {
        let left = try containment()
        if isWord(peek(), "is") {
            let words = peekWords(3)
            _ = next()
            if isWord(words[1], "not") {
                _ = next()
                if isWord(words[2], "in") { _ = next(); return .binary("is not in", left, try containment()) }
                if isWord(words[2], "a") || isWord(words[2], "an") { _ = next(); return .not(.binary("is a", left, try containment())) }
                return .binary("is not", left, try containment())
            }
            if isWord(words[1], "in") { _ = next(); return .binary("is in", left, try containment()) }
            if isWord(words[1], "a") || isWord(words[1], "an") { _ = next(); return .binary("is a", left, try containment()) }
            if case .symbol(let op) = words[1], ["<", ">", "<=", ">="].contains(op) {
                _ = next()
                return .binary(op, left, try containment())
            }
            return .binary("is", left, try containment())
        }
        return left
    }

    private mutating func containment() throws(HarloweSyntaxError) -> HarloweExpr {
        let left = try comparison()
        let words = peekWords(3)
        if isWord(words[0], "contains") { _ = next(); return .binary("contains", left, try comparison()) }
        if isWord(words[0], "does"), isWord(words[1], "not"), isWord(words[2], "contain") {
            _ = next(); _ = next(); _ = next()
            return .binary("does not contain", left, try comparison())
        }
        return left
    }

    private mutating func comparison() throws(HarloweSyntaxError) -> HarloweExpr {
        let left = try additive()
        if case .symbol(let op) = peek(), ["<", ">", "<=", ">="].contains(op) {
            _ = next()
            return .binary(op, left, try additive())
        }
        return left
    }

    private mutating func additive() throws(HarloweSyntaxError) -> HarloweExpr {
        var left = try multiplicative()
        while case .symbol(let op) = peek(), op == "+" || op == "-" {
            _ = next()
            left = .binary(op, left, try multiplicative())
        }
        return left
    }

    private mutating func multiplicative() throws(HarloweSyntaxError) -> HarloweExpr {
        var left = try unary()
        while case .symbol(let op) = peek(), op == "*" || op == "/" || op == "%" {
            _ = next()
            left = .binary(op, left, try unary())
        }
        return left
    }

    private mutating func unary() throws(HarloweSyntaxError) -> HarloweExpr {
        let token = peek()
        if isWord(token, "not") { _ = next(); return .not(try unary()) }
        if token == .symbol("-") { _ = next(); return .negate(try unary()) }
        if token == .symbol("...") { _ = next(); return .spread(try unary()) }
        return try possessive()
    }

    private static let ofProperties: Set<String> = ["length", "last", "some", "any", "all", "start", "end", "random"]

    private mutating func possessive() throws(HarloweSyntaxError) -> HarloweExpr {
        // `1st of $a`, `length of $a`, `last of $a`.
        let words = peekWords(2)
        if case .word(let name) = words[0], isWord(words[1], "of"), Self.isPosition(name) || Self.ofProperties.contains(name.lowercased()) {
            _ = next(); _ = next()
            return .property(try possessive(), .name(name.lowercased()))
        }
        var expression = try primaryToken(next())
        while peek() == .symbol("'s") {
            _ = next()
            switch next() {
            case .word(let name): expression = .property(expression, .name(name))
            case .number(let n): expression = .property(expression, .computed(.literal(.number(n))))
            case .string(let text): expression = .property(expression, .computed(.literal(.string(text))))
            case .variable(let name): expression = .property(expression, .computed(.variable(name)))
            case .temp(let name): expression = .property(expression, .computed(.temp(name)))
            case .open:
                let inner = try assignment()
                guard next() == .close else { throw HarloweSyntaxError(message: "a \"(\" after 's is not closed") }
                expression = .property(expression, .computed(inner))
            case let other: throw HarloweSyntaxError(message: "unexpected \(describe(other)) after 's")
            }
        }
        return expression
    }

    static func isPosition(_ word: String) -> Bool {
        let lower = word.lowercased()
        if lower == "last" { return true }
        for suffix in ["stlast", "ndlast", "rdlast", "thlast", "st", "nd", "rd", "th"] where lower.hasSuffix(suffix) {
            return Int(lower.dropLast(suffix.count)) != nil
        }
        return false
    }

    private mutating func primaryToken(_ token: Token) throws(HarloweSyntaxError) -> HarloweExpr {
        switch token {
        case .number(let n): return .literal(.number(n))
        case .string(let text): return .literal(.string(text))
        case .variable(let name): return .variable(name)
        case .temp(let name): return .temp(name)
        case .hookName(let name): return .hookName(name)
        case .word(let word):
            switch word.lowercased() {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "it": return .it
            case let colour where colour.hasPrefix("#"): return .literal(.colour(colour))
            default: return .word(word.lowercased())
            }
        case .macro(let written):
            let arguments = self.arguments()
            if case .failure(let error) = arguments { throw error }
            return .macro(HarloweMacroCall(name: HarloweMacroCall.normalise(written), written: written, arguments: arguments))
        case .open:
            let inner = try assignment()
            guard next() == .close else { throw HarloweSyntaxError(message: "a \"(\" is not closed") }
            return inner
        case .symbol("["):
            throw HarloweSyntaxError(message: "a hook cannot be a macro's argument")
        case let other:
            throw HarloweSyntaxError(message: "unexpected \(describe(other))")
        }
    }
}
