/// Encodes an `Encodable` value as JSON through PajamaJSON's `JSON` tree and `JSONWriter`: the program's one
/// JSON encoder (settings, progress, bookmarks, co-reading messages...), with no Foundation.
///
/// What it writes, as Foundation's `JSONEncoder` did for the same types: an absent optional is left out (the
/// synthesized `encodeIfPresent`), integers are integers, doubles read back exactly (`0.1`, `1e-05`); a
/// `Date` is its default Codable form, seconds since 2001 (a type wanting ISO 8601 says so in its own
/// `encode(to:)`). Slashes are not escaped. A non-finite double, an integer beyond `Int`, or nesting deeper
/// than `maximumDepth` is an `EncodingError.invalidValue` naming the coding path.
public struct JSONValueEncoder: Sendable {
    /// How the text is laid out: sorted keys and pretty printing for files people read.
    public var format: JSONWriter.Format
    /// Containers nested deeper than this are refused (a recursive value cannot exhaust the stack).
    public var maximumDepth: Int

    public init(format: JSONWriter.Format = JSONWriter.Format(), maximumDepth: Int = 512) {
        self.format = format
        self.maximumDepth = maximumDepth
    }

    /// Sorted keys, compact: messages and files compared byte for byte.
    public static let sorted = JSONValueEncoder(format: JSONWriter.Format(sortedKeys: true))
    /// Sorted keys, indented: files written for people.
    public static let pretty = JSONValueEncoder(format: JSONWriter.Format(sortedKeys: true, prettyPrinted: true))

    /// The value as a `JSON` tree.
    public func encodeValue<T: Encodable>(_ value: T) throws(EncodingError) -> JSON {
        let encoder = ValueEncoder(codingPath: [], maximumDepth: maximumDepth)
        do {
            try value.encode(to: encoder)
        } catch let error as EncodingError {
            throw error
        } catch {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
        guard let json = encoder.node.finish() else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return json
    }

    /// The value's JSON text as UTF-8 bytes.
    public func encode<T: Encodable>(_ value: T) throws(EncodingError) -> [UInt8] {
        JSONWriter.bytes(try encodeValue(value), format: format)
    }

    /// The value's JSON text.
    public func encodeString<T: Encodable>(_ value: T) throws(EncodingError) -> String {
        JSONWriter.write(try encodeValue(value), format: format)
    }
}

/// A value being encoded: a leaf, or a container whose members are filled in (possibly after it was
/// attached to its parent, as nested containers are).
final class EncodingNode {
    enum Content {
        case unset
        case value(JSON)
        case object([(String, EncodingNode)], index: [String: Int]?)
        case array([EncodingNode])
    }

    var content: Content = .unset

    init() {}
    init(_ value: JSON) { content = .value(value) }

    func finish() -> JSON? {
        switch content {
        case .unset: return nil
        case .value(let json): return json
        case .object(let members, _): return .object(members.map { ($0.0, $0.1.finish() ?? .object([])) })
        case .array(let elements): return .array(elements.map { $0.finish() ?? .object([]) })
        }
    }

    /// Sets the member `key` (replacing one of the same key, as Foundation does).
    func set(_ key: String, _ child: EncodingNode) {
        guard case .object(var members, var index) = content else { return }
        content = .unset  // members uniquely referenced while changed
        if let index, let at = index[key] {
            members[at].1 = child
        } else if index == nil, let at = members.firstIndex(where: { $0.0 == key }) {
            members[at].1 = child
        } else {
            members.append((key, child))
            if index != nil {
                index![key] = members.count - 1
            } else if members.count > 16 {
                index = Dictionary(members.enumerated().map { ($0.element.0, $0.offset) }, uniquingKeysWith: { $1 })
            }
        }
        content = .object(members, index: index)
    }

    func append(_ child: EncodingNode) {
        guard case .array(var elements) = content else { return }
        content = .unset
        elements.append(child)
        content = .array(elements)
    }

    var count: Int {
        switch content {
        case .array(let elements): elements.count
        case .object(let members, _): members.count
        default: 0
        }
    }
}

private func invalid(_ value: Any, _ path: [any CodingKey], _ reason: String) -> EncodingError {
    EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: reason))
}

private func scalar(_ value: Double, _ path: [any CodingKey]) throws -> JSON {
    guard value.isFinite else { throw invalid(value, path, "\(value) is not a JSON number") }
    return .double(value)
}

private func scalar<I: BinaryInteger>(_ value: I, _ path: [any CodingKey]) throws -> JSON {
    guard let int = Int(exactly: value) else { throw invalid(value, path, "\(value) is beyond a JSON integer's range") }
    return .int(int)
}

/// Encodes a nested value into a fresh node (the fast path for strings, numbers and booleans).
private func encodeChild<T: Encodable>(_ value: T, path: [any CodingKey], maximumDepth: Int) throws -> EncodingNode {
    switch value {
    case let v as String: return EncodingNode(.string(v))
    case let v as Int: return EncodingNode(.int(v))
    case let v as Bool: return EncodingNode(.bool(v))
    case let v as Double: return EncodingNode(try scalar(v, path))
    default:
        guard path.count < maximumDepth else { throw invalid(value, path, "nesting deeper than \(maximumDepth) levels") }
        let encoder = ValueEncoder(codingPath: path, maximumDepth: maximumDepth)
        try value.encode(to: encoder)
        if case .unset = encoder.node.content { encoder.node.content = .object([], index: nil) }
        return encoder.node
    }
}


final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let maximumDepth: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let node: EncodingNode

    init(codingPath: [any CodingKey], maximumDepth: Int, node: EncodingNode = EncodingNode()) {
        self.codingPath = codingPath
        self.maximumDepth = maximumDepth
        self.node = node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([], index: nil) }
        return KeyedEncodingContainer(KeyedEncoding<Key>(node: node, codingPath: codingPath, maximumDepth: maximumDepth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedEncoding(node: node, codingPath: codingPath, maximumDepth: maximumDepth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncoding(node: node, codingPath: codingPath, maximumDepth: maximumDepth)
    }
}

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let maximumDepth: Int

    private func put(_ json: JSON, _ key: Key) { node.set(key.stringValue, EncodingNode(json)) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try scalar(value, codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(try scalar(Double(value), codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(try scalar(value, codingPath + [key]), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try scalar(value, codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try scalar(value, codingPath + [key]), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(key.stringValue, try encodeChild(value, path: codingPath + [key], maximumDepth: maximumDepth))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.content = .object([], index: nil)
        node.set(key.stringValue, child)
        return KeyedEncodingContainer(KeyedEncoding<NestedKey>(node: child, codingPath: codingPath + [key], maximumDepth: maximumDepth))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.content = .array([])
        node.set(key.stringValue, child)
        return UnkeyedEncoding(node: child, codingPath: codingPath + [key], maximumDepth: maximumDepth)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let child = EncodingNode()
        node.set(key.stringValue, child)
        return ValueEncoder(codingPath: codingPath + [key], maximumDepth: maximumDepth, node: child)
    }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let maximumDepth: Int
    var count: Int { node.count }

    private func put(_ json: JSON) { node.append(EncodingNode(json)) }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try scalar(value, nextPath)) }
    mutating func encode(_ value: Float) throws { put(try scalar(Double(value), nextPath)) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(try scalar(value, nextPath)) }
    mutating func encode(_ value: UInt) throws { put(try scalar(value, nextPath)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { put(try scalar(value, nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try encodeChild(value, path: nextPath, maximumDepth: maximumDepth))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = EncodingNode()
        child.content = .object([], index: nil)
        node.append(child)
        return KeyedEncodingContainer(KeyedEncoding<NestedKey>(node: child, codingPath: path, maximumDepth: maximumDepth))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = EncodingNode()
        child.content = .array([])
        node.append(child)
        return UnkeyedEncoding(node: child, codingPath: path, maximumDepth: maximumDepth)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = EncodingNode()
        node.append(child)
        return ValueEncoder(codingPath: path, maximumDepth: maximumDepth, node: child)
    }
}

private struct SingleValueEncoding: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let maximumDepth: Int

    private func put(_ json: JSON) { node.content = .value(json) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try scalar(value, codingPath)) }
    mutating func encode(_ value: Float) throws { put(try scalar(Double(value), codingPath)) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(try scalar(value, codingPath)) }
    mutating func encode(_ value: UInt) throws { put(try scalar(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { put(try scalar(value, codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let child = try encodeChild(value, path: codingPath, maximumDepth: maximumDepth)
        node.content = child.content
    }
}
