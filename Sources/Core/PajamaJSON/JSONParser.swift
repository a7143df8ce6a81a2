/// The one JSON parser (RFC 8259) of stories, ink, settings and co-reading: strict, over UTF-8 bytes, with the
/// line and column of every error.
///
/// It refuses invalid UTF-8, raw control characters in strings, a field that appears twice, and nesting deeper
/// than `maximumDepth`, so a hostile file cannot exhaust the stack. Strings without escapes are made from their
/// bytes in one step and objects are arrays of members (no hashing), which makes it about 2.5x faster than the
/// two parsers it replaced (docs/performance.md, "JSON").
public struct JSONParser {
    /// A syntax error with its position (1-based line and column).
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// What a document may hold beyond the strict grammar.
    public struct Options: Sendable {
        /// Objects and arrays nested deeper than this are an error.
        public var maximumDepth: Int
        /// An unpaired surrogate escape (`"\ud800"`) is read as U+FFFD instead of being an error: ink's own
        /// runtime reads strings as UTF-16 and keeps such halves, so compiled ink may carry them.
        public var replacesUnpairedSurrogates: Bool

        public init(maximumDepth: Int = JSONParser.maximumDepth, replacesUnpairedSurrogates: Bool = false) {
            self.maximumDepth = maximumDepth
            self.replacesUnpairedSurrogates = replacesUnpairedSurrogates
        }

        /// Story files, settings and messages: 64 levels, every surrogate paired.
        public static let strict = Options()
        /// Compiled ink and its save states: deep containers (512 levels), unpaired surrogates replaced.
        public static let ink = Options(maximumDepth: 512, replacesUnpairedSurrogates: true)
    }

    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private let options: Options
    private var index = 0
    private var depth = 0

    /// Parses one JSON document; trailing content other than whitespace is an error. A UTF-8 byte-order mark
    /// is skipped (inklecate writes one).
    public static func parse(_ bytes: [UInt8], options: Options = .strict) throws(SyntaxError) -> JSON {
        var parser = JSONParser(bytes: bytes, options: options)
        try parser.checkUTF8()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected content after the end of the document") }
        return value
    }

    public static func parse(_ text: String, options: Options = .strict) throws(SyntaxError) -> JSON {
        try parse(Array(text.utf8), options: options)
    }

    private init(bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
    }

    private func error(_ message: String, at position: Int? = nil) -> SyntaxError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var column = 1
        var i = 0
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return SyntaxError(message: message, line: line, column: column)
    }

    private func checkUTF8() throws(SyntaxError) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            let minimum: UInt32
            if b & 0xE0 == 0xC0 { length = 2; minimum = 0x80 }
            else if b & 0xF0 == 0xE0 { length = 3; minimum = 0x800 }
            else if b & 0xF8 == 0xF0 { length = 4; minimum = 0x10000 }
            else { throw error("the file is not valid UTF-8 (byte 0x\(String(b, radix: 16)))", at: i) }
            guard i + length <= n else { throw error("the file is not valid UTF-8 (truncated sequence)", at: i) }
            var scalar = UInt32(b) & (0xFF >> (length + 1))
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { throw error("the file is not valid UTF-8 (bad continuation byte)", at: i) }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                throw error("the file is not valid UTF-8 (invalid sequence)", at: i)
            }
            i += length
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(SyntaxError) -> JSON {
        guard index < bytes.count else { throw error("unexpected end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Self.show(bytes[index]))'")
        }
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { text in
            index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == text[$0] }
        }
        guard matches else { throw error("invalid literal (expected '\(literal)')") }
        index += count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > options.maximumDepth { throw error("nesting deeper than \(options.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(SyntaxError) -> JSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(String, JSON)] = []
        var keys: Set<String>?  // once an object is large, a field seen twice is found by hashing
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted field name") }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after the field name \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            let seen: Bool
            if keys != nil {
                seen = !keys!.insert(key).inserted
            } else if members.count < 16 {
                seen = members.contains { $0.0 == key }
            } else {
                keys = Set(members.map(\.0))
                seen = !keys!.insert(key).inserted
            }
            if seen { throw error("the field \"\(key)\" appears twice", at: keyStart) }
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the document inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSON {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of the document inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']' in an array")
        }
    }

    /// A string: a run without escapes (the common case) becomes a String in one step; escapes are decoded into
    /// a byte buffer. The bytes were checked as UTF-8 before parsing.
    private mutating func parseString() throws(SyntaxError) -> String {
        let start = index
        index += 1
        let runStart = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[runStart..<index - 1], as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("a raw control character (0x\(String(b, radix: 16))) inside a string; write it as an escape") }
            index += 1
        }
        var out = Array(bytes[runStart..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("a raw control character (0x\(String(b, radix: 16))) inside a string; write it as an escape") }
            index += 1
            guard b == UInt8(ascii: "\\") else { out.append(b); continue }
            guard index < bytes.count else { throw error("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"): out.append(contentsOf: Unicode.UTF8.encode(try parseEscapedScalar())!)
            default: throw error("an invalid escape '\\\(Self.show(e))'")
            }
        }
    }

    /// The scalar of a `\u` escape (its `\u` read), a surrogate pair joined.
    private mutating func parseEscapedScalar() throws(SyntaxError) -> Unicode.Scalar {
        let unpaired = Unicode.Scalar(0xFFFD)!
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code) {
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let rewind = index
                index += 2
                let low = try parseHex4()
                if (0xDC00...0xDFFF).contains(low) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if options.replacesUnpairedSurrogates {
                    index = rewind
                    return unpaired
                } else {
                    throw error("an unpaired surrogate escape")
                }
            } else if options.replacesUnpairedSurrogates {
                return unpaired
            } else {
                throw error("an unpaired surrogate escape")
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            if options.replacesUnpairedSurrogates { return unpaired }
            throw error("an unpaired surrogate escape")
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
        return scalar
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("an invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A number: an int when it has no fraction or exponent and fits in `Int`, else a double.
    private mutating func parseNumber() throws(SyntaxError) -> JSON {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var magnitude: UInt64 = 0
        var overflow = false
        func digits(_ p: inout JSONParser, accumulating: Bool) -> Int {
            let s = p.index
            while p.index < p.bytes.count, p.bytes[p.index] >= 0x30, p.bytes[p.index] <= 0x39 {
                if accumulating, !overflow {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(UInt64(p.bytes[p.index] - 0x30))
                    if o1 || o2 { overflow = true } else { magnitude = sum }
                }
                p.index += 1
            }
            return p.index - s
        }
        guard index < bytes.count else { throw error("a number without digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self, accumulating: true) == 0 {
            throw error("a number without digits")
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            if digits(&self, accumulating: false) == 0 { throw error("a number with no digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self, accumulating: false) == 0 { throw error("a number with no digits in its exponent") }
        }
        if isInteger, !overflow {
            if negative, magnitude <= UInt64(Int.max) + 1 { return .int(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)) }
            if !negative, magnitude <= UInt64(Int.max) { return .int(Int(magnitude)) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("the number \(text) is out of range", at: start) }
        return .double(value)
    }
}
