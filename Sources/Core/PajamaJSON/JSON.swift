/// A parsed JSON document: integers and floats stay apart (ink's `1` is an int, `1.0` a float) and objects keep
/// their member order, so ink's save states round-trip and a story decoder can name the exact path of a bad field.
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(b)
        case let .int(i): hasher.combine(i)
        case let .double(d): hasher.combine(d)
        case let .string(s): hasher.combine(s)
        case let .array(a): hasher.combine(a)
        case let .object(members):
            hasher.combine(members.count)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The value as compact JSON text.
    public var serialized: String { JSONWriter.write(self) }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The JSON type's name, for error messages ("a string", "an array"...).
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// An int, a float cut to an int, or a string of digits (ink reads numbers written either way).
    public var intValue: Int? {
        switch self {
        case let .int(i): return i
        case let .double(d): return Int(exactly: d.rounded(.towardZero))
        case let .string(s): return Int(s)
        default: return nil
        }
    }

    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case let .array(a) = self { return a }
        return nil
    }

    public var objectValue: [(String, JSON)]? {
        if case let .object(o) = self { return o }
        return nil
    }
}
