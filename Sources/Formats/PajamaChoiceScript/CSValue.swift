import PajamaBasics
/// A ChoiceScript value: what a variable holds and an expression gives. ChoiceScript runs on JavaScript, whose
/// values it keeps as they are (a number, a string, a boolean); its operators convert between them as
/// JavaScript does, and so do these (`number(_:)`, `truth(_:)`, `text`).
public enum CSValue: Hashable, Sendable, Codable {
    case number(Double)
    case string(String)
    case bool(Bool)

    /// The value as JavaScript's `String(value)` writes it: `3`, `0.5`, `true`.
    public var text: String {
        switch self {
        case .string(let string): string
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number): Self.format(number)
        }
    }

    /// A number as JavaScript writes it: integers without a fraction, others in their shortest form.
    static func format(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e21 {
            if abs(number) < 9e18 { return String(Int64(number)) }
        }
        var shown = "\(number)"
        // Swift writes 1e-07 where JavaScript writes 1e-7.
        if let e = shown.firstIndex(of: "e") {
            var exponent = String(shown[shown.index(after: e)...])
            var sign = "+"
            if exponent.hasPrefix("-") { sign = "-"; exponent.removeFirst() } else if exponent.hasPrefix("+") { exponent.removeFirst() }
            while exponent.hasPrefix("0"), exponent.count > 1 { exponent.removeFirst() }
            shown = String(shown[..<e]) + "e" + sign + exponent
        }
        return shown
    }

    /// JavaScript's `parseFloat`: the number at the start of the text (leading spaces skipped), nil when none.
    static func parseFloat(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        if bytes[index...].starts(with: "Infinity".utf8) {
            return bytes[start] == UInt8(ascii: "-") ? -.infinity : .infinity
        }
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        var end = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            var cursor = index + 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
            var exponentDigits = 0
            while cursor < bytes.count, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 { cursor += 1; exponentDigits += 1 }
            if exponentDigits > 0 { end = cursor }
        }
        var literal = String(decoding: bytes[start..<end], as: UTF8.self)
        if literal.hasSuffix(".") { literal.removeLast() }
        if literal.hasPrefix(".") { literal = "0" + literal } else if literal.hasPrefix("-.") || literal.hasPrefix("+.") { literal.insert("0", at: literal.index(after: literal.startIndex)) }
        return Double(literal)
    }

    /// JavaScript's `Number(text)` for the loose comparison: the whole text a number ("" is 0), else nil (NaN).
    static func wholeNumber(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return 0 }
        guard let value = parseFloat(trimmed) else { return nil }
        // Only when the number is the whole text.
        let shown = trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed
        if Double(shown) != nil || shown == "Infinity" || shown == "-Infinity" { return value }
        return nil
    }

    /// JavaScript's loose `==`.
    static func looselyEqual(_ left: CSValue, _ right: CSValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .string(let b)), (.string(let b), .number(let a)): return wholeNumber(b) == a
        case (.bool(let a), _): return looselyEqual(.number(a ? 1 : 0), right)
        case (_, .bool(let b)): return looselyEqual(left, .number(b ? 1 : 0))
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line ends (JavaScript's `trim` for ASCII).
    var trimmingSpaces: String {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C }
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        if start == bytes.startIndex, end == bytes.endIndex { return self }
        return String(self[start..<end])
    }
}
