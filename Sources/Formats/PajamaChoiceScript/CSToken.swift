/// One token of a ChoiceScript expression, as scene.js's `tokenizeExpr` cuts them.
struct CSToken: Equatable {
    enum Kind: String {
        case openParenthesis = "OPEN_PARENTHESIS", closeParenthesis = "CLOSE_PARENTHESIS"
        case openCurly = "OPEN_CURLY", closeCurly = "CLOSE_CURLY"
        case openSquare = "OPEN_SQUARE", closeSquare = "CLOSE_SQUARE"
        case function = "FUNCTION", number = "NUMBER", string = "STRING"
        case namedOperator = "NAMED_OPERATOR", variable = "VAR", fairmath = "FAIRMATH", `operator` = "OPERATOR"
        case inequality = "INEQUALITY", equality = "EQUALITY", comma = "COMMA"
    }

    var kind: Kind
    /// The token's text (a string with its quotes; a function's name without its parenthesis).
    var value: String
    /// Where the token ends, 1-based (scene.js's `pos`), for messages.
    var position: Int

    static let functions: Set<String> = ["not", "round", "timestamp", "log", "length", "auto"]

    /// The tokens of `text`; an error names the text no token starts.
    static func tokenize(_ text: String) throws(CSError) -> [CSToken] {
        let bytes = Array(text.utf8)
        var tokens: [CSToken] = []
        var index = 0
        func isWord(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C }
        func word(at start: Int) -> Int {
            var end = start
            while end < bytes.count, isWord(bytes[end]) { end += 1 }
            return end
        }
        func push(_ kind: Kind, _ start: Int, _ end: Int) {
            tokens.append(CSToken(kind: kind, value: String(decoding: bytes[start..<end], as: UTF8.self), position: end))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "("): push(.openParenthesis, index, index + 1); index += 1; continue
            case UInt8(ascii: ")"): push(.closeParenthesis, index, index + 1); index += 1; continue
            case UInt8(ascii: "{"): push(.openCurly, index, index + 1); index += 1; continue
            case UInt8(ascii: "}"): push(.closeCurly, index, index + 1); index += 1; continue
            case UInt8(ascii: "["): push(.openSquare, index, index + 1); index += 1; continue
            case UInt8(ascii: "]"): push(.closeSquare, index, index + 1); index += 1; continue
            default: break
            }
            if isWord(byte) {
                let end = word(at: index)
                let name = String(decoding: bytes[index..<end], as: UTF8.self)
                // A function: its name, spaces, then "(".
                if functions.contains(name) {
                    var cursor = end
                    while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "(") {
                        tokens.append(CSToken(kind: .function, value: name, position: cursor + 1))
                        index = cursor + 1
                        continue
                    }
                }
                // A number: digits, maybe a fraction, then a word boundary.
                if byte >= 0x30, byte <= 0x39 {
                    var cursor = index
                    while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 { cursor += 1 }
                    var numberEnd: Int?
                    if cursor + 1 < bytes.count, bytes[cursor] == UInt8(ascii: "."), bytes[cursor + 1] >= 0x30, bytes[cursor + 1] <= 0x39 {
                        var fraction = cursor + 1
                        while fraction < bytes.count, bytes[fraction] >= 0x30, bytes[fraction] <= 0x39 { fraction += 1 }
                        if fraction >= bytes.count || !isWord(bytes[fraction]) { numberEnd = fraction }
                    }
                    if numberEnd == nil {
                        // Backtracking as the regular expression does: the digits alone, at a boundary.
                        if cursor >= bytes.count || !isWord(bytes[cursor]) { numberEnd = cursor }
                    }
                    if let numberEnd {
                        push(.number, index, numberEnd)
                        index = numberEnd
                        continue
                    }
                }
                if name == "and" || name == "or" || name == "modulo" {
                    push(.namedOperator, index, end)
                } else {
                    push(.variable, index, end)
                }
                index = end
                continue
            }
            if byte == UInt8(ascii: "\"") {
                var cursor = index + 1
                var closed = false
                while cursor < bytes.count {
                    if bytes[cursor] == UInt8(ascii: "\\") {
                        cursor += 2
                        continue
                    }
                    if bytes[cursor] == UInt8(ascii: "\"") { closed = true; break }
                    cursor += 1
                }
                guard closed else {
                    throw CSError("Invalid string, open quote with no close quote: " + String(decoding: bytes[index...], as: UTF8.self))
                }
                push(.string, index, cursor + 1)
                index = cursor + 1
                continue
            }
            // Curly quotes (U+201C, U+201D: E2 80 9C / 9D).
            if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0x9C || bytes[index + 2] == 0x9D {
                throw CSError("Invalid use of curly smart quote: " + String(decoding: bytes[index..<index + 3], as: UTF8.self) + " (use straight quotes \" instead)")
            }
            if isSpace(byte) {
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "%"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "+") || bytes[index + 1] == UInt8(ascii: "-") {
                push(.fairmath, index, index + 2); index += 2; continue
            }
            if "+-*/&%^#".utf8.contains(byte) { push(.operator, index, index + 1); index += 1; continue }
            if byte == UInt8(ascii: "!") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
                let end = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "=") ? index + 2 : index + 1
                push(.inequality, index, end); index = end; continue
            }
            if byte == UInt8(ascii: "=") { push(.equality, index, index + 1); index += 1; continue }
            if byte == UInt8(ascii: ",") { push(.comma, index, index + 1); index += 1; continue }
            throw CSError("Invalid expression, couldn't extract another token: " + String(decoding: bytes[index...], as: UTF8.self))
        }
        return tokens
    }
}

/// Why a line of a ChoiceScript game cannot run: its message, which the runtime prefixes with the scene and
/// line ("grove line 12: ...") as ChoiceScript does.
public struct CSError: Error, Equatable, Sendable {
    public var message: String

    init(_ message: String) { self.message = message }
}
