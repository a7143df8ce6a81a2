extension CSRuntime {
    /// scene.js's printLine: a line of text, variables replaced, joined to the paragraph with a space (none
    /// after a hyphen or dash, or `[c/]`).
    func printLine(_ line: String) throws(CSError) {
        guard !line.isEmpty else { return }
        let text = try replaceVariables(String(line.drop { $0 == " " || $0 == "\t" }))
        paragraphParts.append(text)
        if let last = text.unicodeScalars.last, last == "-" || (last.value >= 0x2011 && last.value <= 0x2014) { return }
        if text.hasSuffix("[c/]") { return }
        paragraphParts.append(" ")
    }

    /// `*print`: as JavaScript's `if (!line) return`, nothing for 0, "" or false.
    func printValue(_ value: CSValue) throws(CSError) {
        switch value {
        case .number(0), .string(""), .bool(false): return
        default: try printLine(value.text)
        }
    }

    /// Ends the paragraph being joined.
    func paragraph() {
        let text = paragraphParts.joined()
        paragraphParts = []
        if !text.isEmpty { output.append(.paragraph(text)) }
    }

    /// scene.js's replaceVariables: `${expression}`, `$!{...}` (first letter capital), `$!!{...}` (all
    /// capitals), and multireplace `@{expression a|b|c}`.
    func replaceVariables(_ line: String) throws(CSError) -> String {
        guard line.contains("{") else { return line }
        let bytes = Array(line.utf8)
        var result: [UInt8] = []
        var index = 0
        var copied = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@") else { index += 1; continue }
            var cursor = index + 1
            var bangs = 0
            while bangs < 2, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "!") { bangs += 1; cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            let bodyStart = cursor + 1
            var depth = 0
            var closing: Int?
            var scan = bodyStart
            while scan < bytes.count {
                if bytes[scan] == UInt8(ascii: "{") {
                    depth += 1
                } else if bytes[scan] == UInt8(ascii: "}") {
                    if depth == 0 { closing = scan; break }
                    depth -= 1
                }
                scan += 1
            }
            let opener = String(decoding: bytes[index...cursor], as: UTF8.self)
            guard let closing else { throw CSError("invalid \(opener)} variable substitution at letter \(index + 1)") }
            result += bytes[copied..<index]
            let body = String(decoding: bytes[bodyStart..<closing], as: UTF8.self)
            var value = byte == UInt8(ascii: "$") ? try evaluate(body).text : try multireplace(body, opener: opener, letter: index + 1)
            if bangs == 1, let first = value.first {
                value = first.uppercased() + value.dropFirst()
            } else if bangs == 2 {
                value = value.uppercased()
            }
            result += Array(value.utf8)
            index = closing + 1
            copied = index
        }
        guard copied > 0 else { return line }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// `@{expression a|b|c}`: the option the expression's value (1, 2, ... or true for the first, false for the
    /// second) names.
    private func multireplace(_ body: String, opener: String, letter: Int) throws(CSError) -> String {
        let expression: String
        let rest: Substring
        let start = body.drop { $0 == " " || $0 == "\t" }
        if start.hasPrefix("(") {
            var depth = 0
            var close: String.Index?
            var cursor = start.index(after: start.startIndex)
            while cursor < start.endIndex {
                if start[cursor] == "(" { depth += 1 } else if start[cursor] == ")" {
                    if depth == 0 { close = cursor; break }
                    depth -= 1
                }
                cursor = start.index(after: cursor)
            }
            guard let close else { throw CSError("invalid \(opener)} at letter \(letter); missing closing parenthesis )") }
            let after = start.index(after: close)
            guard after < start.endIndex, start[after] == " " else {
                throw CSError("invalid \(opener)} at letter \(letter); there should be a space after the closing parenthesis )")
            }
            expression = String(start[start.index(after: start.startIndex)..<close])
            rest = start[start.index(after: after)...]
        } else {
            guard let space = body.firstIndex(of: " "), space > body.startIndex else {
                throw CSError("invalid \(opener)} at letter \(letter); there should be a space after the first word")
            }
            expression = String(body[..<space])
            rest = body[body.index(after: space)...]
        }
        let options = rest.split(separator: "|", omittingEmptySubsequences: false)
        guard options.count >= 2 else { throw CSError("invalid \(opener)} at letter \(letter); there should be at least one pipe | to separate options") }
        var value = try evaluate(expression)
        if case .bool(let bool) = value { value = .number(bool ? 1 : 2) } else if value.text.lowercased() == "true" || value.text.lowercased() == "false" {
            value = .number(value.text.lowercased() == "true" ? 1 : 2)
        }
        let number = try self.number(value)
        guard number == number.rounded() else {
            throw CSError("invalid \(opener)} at letter \(letter); '\(expression)' is equal to \(CSValue.format(number)) which is not a whole integer number")
        }
        guard number >= 1 else {
            throw CSError("invalid \(opener)} at letter \(letter); '\(expression)' is equal to \(CSValue.format(number)) which is not a positive number")
        }
        guard Int(number) <= options.count else {
            throw CSError("invalid \(opener)} at letter \(letter); '\(expression)' is equal to \(CSValue.format(number)) but there are only \(options.count) options")
        }
        return try replaceVariables(String(options[Int(number) - 1]))
    }
}
