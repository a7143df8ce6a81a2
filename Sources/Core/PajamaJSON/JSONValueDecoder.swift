/// Decodes a `Decodable` value from JSON text through `JSONParser` and its `JSON` tree: the program's one JSON
/// decoder, with no Foundation.
///
/// Text that is not JSON throws the parser's `JSONParser.SyntaxError` (its line and column); a document over
/// `maximumSize` bytes throws `JSONValueDecoder.TooLarge`; a value of the wrong type or a missing field throws
/// the standard `DecodingError` with the coding path, which `JSONValueDecoder.describe(_:)` puts in words
/// (`the field "location.beat" is missing`). An integer field takes `3` or `3.0` (not `3.5`), a double field any
/// number; unknown fields are ignored, as Foundation's decoder did.
public struct JSONValueDecoder: Sendable {
    /// What the parser accepts (depth, surrogates).
    public var options: JSONParser.Options
    /// The largest document read, in bytes; nil for no limit beyond the caller's.
    public var maximumSize: Int?

    public init(options: JSONParser.Options = .strict, maximumSize: Int? = nil) {
        self.options = options
        self.maximumSize = maximumSize
    }

    /// A document larger than `maximumSize`.
    public struct TooLarge: Error, Equatable, Sendable, CustomStringConvertible {
        public var size: Int
        public var limit: Int
        public init(size: Int, limit: Int) {
            self.size = size
            self.limit = limit
        }
        public var description: String { "the document is \(size) bytes (the limit is \(limit))" }
    }

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if let maximumSize, bytes.count > maximumSize { throw TooLarge(size: bytes.count, limit: maximumSize) }
        return try decode(type, from: try JSONParser.parse(bytes, options: options))
    }

    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Array(text.utf8))
    }

    /// A value from an already parsed tree.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        try T(from: ValueDecoder(json, codingPath: []))
    }

    /// An error of `decode` in words, naming the line and column or the field:
    /// `not valid JSON: line 3, column 7: expected ',' or '}' in an object`, `the field "history[2].beat" is missing`,
    /// `"volume" has the wrong type (expected a number, found a string)`.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as JSONParser.SyntaxError: return "not valid JSON: \(error)"
        case let error as TooLarge: return error.description
        case let error as DecodingError:
            switch error {
            case .keyNotFound(let key, let context):
                return "the field \"\(path(context.codingPath + [key]))\" is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                let field = context.codingPath.isEmpty ? "the document" : "\"\(path(context.codingPath))\""
                return "\(field) has the wrong type (\(context.debugDescription))"
            case .dataCorrupted(let context):
                let field = context.codingPath.isEmpty ? "the document" : "\"\(path(context.codingPath))\""
                return "\(field) is not valid (\(context.debugDescription))"
            @unknown default: return "\(error)"
            }
        default: return "\(error)"
        }
    }

    /// A coding path as a field name: `history[2].beat`.
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "\(index)" || key.stringValue.hasPrefix("Index ") {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }
}

private func mismatch(_ type: Any.Type, _ json: JSON, _ path: [any CodingKey], expected: String? = nil) -> DecodingError {
    let expected = expected ?? {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Double.Type, is Float.Type: "a number"
        default: type is any BinaryInteger.Type ? "an integer" : "\(type)"
        }
    }()
    if case .null = json {
        return DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(expected), found null"))
    }
    return DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected), found \(json.typeDescription)"))
}

private func decodeInteger<I: BinaryInteger & FixedWidthInteger>(_ type: I.Type, _ json: JSON, _ path: [any CodingKey]) throws -> I {
    switch json {
    case .int(let i):
        guard let value = I(exactly: i) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(i) does not fit in \(I.self)"))
        }
        return value
    case .double(let d):
        // Beyond 2^53 a double is not the integer the text said (a UInt64 beyond Int is read as a double).
        guard d.magnitude <= 9_007_199_254_740_992, let value = I(exactly: d) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(d) is not an integer of \(I.self)'s range"))
        }
        return value
    default: throw mismatch(type, json, path)
    }
}

private func decodeDouble(_ json: JSON, _ path: [any CodingKey]) throws -> Double {
    switch json {
    case .int(let i): return Double(i)
    case .double(let d): return d
    default: throw mismatch(Double.self, json, path)
    }
}


/// Decodes a nested value (the fast path for strings, numbers and booleans).
private func decodeChild<T: Decodable>(_ type: T.Type, _ json: JSON, _ path: [any CodingKey]) throws -> T {
    switch type {
    case is String.Type:
        guard case .string(let s) = json else { throw mismatch(type, json, path) }
        return s as! T
    case is Int.Type: return try decodeInteger(Int.self, json, path) as! T
    case is Bool.Type:
        guard case .bool(let b) = json else { throw mismatch(type, json, path) }
        return b as! T
    case is Double.Type: return try decodeDouble(json, path) as! T
    default: return try T(from: ValueDecoder(json, codingPath: path))
    }
}

final class ValueDecoder: Decoder {
    let json: JSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ json: JSON, codingPath: [any CodingKey]) {
        self.json = json
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = json else {
            throw mismatch([String: JSON].self, json, codingPath, expected: "an object")
        }
        return KeyedDecodingContainer(KeyedDecoding<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = json else {
            throw mismatch([JSON].self, json, codingPath, expected: "an array")
        }
        return UnkeyedDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoding(json: json, codingPath: codingPath)
    }
}

private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSON)]
    let codingPath: [any CodingKey]
    /// For large objects (a dictionary of many entries), the members by key; small ones are searched.
    private let index: [String: Int]?

    init(members: [(String, JSON)], codingPath: [any CodingKey]) {
        self.members = members
        self.codingPath = codingPath
        index = members.count > 16 ? Dictionary(members.enumerated().map { ($0.element.0, $0.offset) }, uniquingKeysWith: { $1 }) : nil
    }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    private func find(_ key: Key) -> JSON? {
        let name = key.stringValue
        if let index { return index[name].map { members[$0].1 } }
        for member in members where member.0 == name { return member.1 }
        return nil
    }

    private func value(_ key: Key) throws -> JSON {
        guard let json = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no field \"\(key.stringValue)\""))
        }
        return json
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeChild(type, value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeChild(type, value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeDouble(value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decodeDouble(value(key), codingPath + [key])) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(type, value(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeChild(type, value(key), codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(find(Key(stringValue: "super")!) ?? .null, codingPath: codingPath + [SuperKey()])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(find(key) ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let elements: [JSON]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSON], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    private mutating func next<T>(_ type: T.Type) throws -> JSON {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        return elements[currentIndex]
    }

    private mutating func take<T>(_ body: (JSON, [any CodingKey]) throws -> T) throws -> T {
        let value = try body(try next(T.self), path)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try next(Never.self) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try take { try decodeChild(type, $0, $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try take { try decodeChild(type, $0, $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try take { try decodeDouble($0, $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try take { Float(try decodeDouble($0, $1)) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take { try decodeInteger(type, $0, $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take { try decodeInteger(type, $0, $1) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take { try decodeChild(type, $0, $1) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try take { try ValueDecoder($0, codingPath: $1).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try take { try ValueDecoder($0, codingPath: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try take { ValueDecoder($0, codingPath: $1) }
    }
}

private struct SingleValueDecoding: SingleValueDecodingContainer {
    let json: JSON
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = json { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeChild(type, json, codingPath) }
    func decode(_ type: String.Type) throws -> String { try decodeChild(type, json, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decodeDouble(json, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decodeDouble(json, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type, json, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type, json, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type, json, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type, json, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeChild(type, json, codingPath) }
}
