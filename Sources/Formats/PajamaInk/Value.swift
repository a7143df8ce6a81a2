/// An ink value on the evaluation stack, in a variable or in the output.
public enum InkValue: CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case float(Float)
    case list(InkList)
    case string(String)
    case divertTarget(Path)
    case variablePointer(name: String, contextIndex: Int)

    /// ink's coercion order: a binary operation works in the higher of its operands' types.
    var typeRank: Int {
        switch self {
        case .bool: return -1
        case .int: return 0
        case .float: return 1
        case .list: return 2
        case .string: return 3
        case .divertTarget: return 4
        case .variablePointer: return 5
        }
    }

    var typeName: String {
        switch self {
        case .bool: return "Bool"
        case .int: return "Int"
        case .float: return "Float"
        case .list: return "List"
        case .string: return "String"
        case .divertTarget: return "DivertTarget"
        case .variablePointer: return "VariablePointer"
        }
    }

    public var description: String {
        switch self {
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .float(f): return InkValue.format(f)
        case let .list(l): return l.description
        case let .string(s): return s
        case let .divertTarget(p): return "DivertTargetValue(\(p))"
        case let .variablePointer(name, _): return "VariablePointerValue(\(name))"
        }
    }

    /// Shortest round-trip digits, no exponent and no trailing `.0` (as the reference runtime prints floats).
    static func format(_ f: Float) -> String {
        if f.isNaN { return "NaN" }
        if f.isInfinite { return f > 0 ? "inf" : "-inf" }
        var text = "\(f)"
        if text.contains("e") { text = expandExponent(text) }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func expandExponent(_ text: String) -> String {
        let parts = text.split(separator: "e")
        guard parts.count == 2, let exponent = Int(parts[1]) else { return text }
        var mantissa = String(parts[0])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let intPart = String(pieces[0])
        var fracPart = pieces.count > 1 ? String(pieces[1]) : ""
        if fracPart == "0" { fracPart = "" }
        var digits = intPart + fracPart
        var pointPosition = intPart.count + exponent
        if pointPosition <= 0 {
            digits = String(repeating: "0", count: 1 - pointPosition) + digits
            pointPosition = 1
        }
        if pointPosition >= digits.count { digits += String(repeating: "0", count: pointPosition - digits.count) }
        let whole = digits.prefix(pointPosition)
        let fraction = digits.dropFirst(pointPosition)
        return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    var isTruthy: Bool {
        get throws(StoryError) {
            switch self {
            case let .bool(b): return b
            case let .int(i): return i != 0
            case let .float(f): return f != 0
            case let .list(l): return l.count > 0
            case let .string(s): return !s.isEmpty
            case .divertTarget: throw StoryError("Shouldn't be checking the truthiness of a divert target")
            case .variablePointer: throw StoryError("Shouldn't be checking the truthiness of a variable pointer")
            }
        }
    }

    /// ink's cast between value types (a bad cast is a runtime error, as in the reference runtime).
    func cast(toRank rank: Int) throws(StoryError) -> InkValue {
        if rank == typeRank { return self }
        func bad() -> StoryError {
            StoryError("Can't cast \(description) from \(typeName) to \(InkValue.rankName(rank))")
        }
        switch self {
        case let .bool(b):
            switch rank {
            case 0: return .int(b ? 1 : 0)
            case 1: return .float(b ? 1 : 0)
            case 3: return .string(b ? "true" : "false")
            default: throw bad()
            }
        case let .int(i):
            switch rank {
            case -1: return .bool(i != 0)
            case 1: return .float(Float(i))
            case 3: return .string(String(i))
            default: throw bad()
            }
        case let .float(f):
            switch rank {
            case -1: return .bool(f != 0)
            case 0: return .int(InkValue.truncate(f))
            case 3: return .string(InkValue.format(f))
            default: throw bad()
            }
        case let .string(s):
            switch rank {
            case 0: if let i = Int(s) { return .int(i) } else { throw bad() }
            case 1: if let f = Float(s) { return .float(f) } else { throw bad() }
            default: throw bad()
            }
        case let .list(l):
            switch rank {
            case 0: return .int(l.maxItem?.1 ?? 0)
            case 1: return .float(Float(l.maxItem?.1 ?? 0))
            case 3: return .string(l.maxItem.map { $0.0.fullName } ?? "")
            default: throw bad()
            }
        default:
            throw bad()
        }
    }

    static func truncate(_ f: Float) -> Int {
        guard f.isFinite else { return 0 }
        let t = f.rounded(.towardZero)
        if t >= Float(Int32.max) { return Int(Int32.max) }
        if t <= Float(Int32.min) { return Int(Int32.min) }
        return Int(t)
    }

    static func rankName(_ rank: Int) -> String {
        ["Bool", "Int", "Float", "List", "String", "DivertTarget", "VariablePointer"][rank + 1]
    }
}

/// A value as content of a container or an entry of the evaluation stack.
final class ValueObject: InkObject {
    let value: InkValue
    init(_ value: InkValue) { self.value = value }

    var isNewline: Bool {
        if case let .string(s) = value { return s == "\n" }
        return false
    }
}

typealias ListValue = ValueObject

extension ValueObject {
    convenience init(_ list: InkList) { self.init(.list(list)) }

    var stringText: String? {
        if case let .string(s) = value { return s }
        return nil
    }

    var listValue: InkList? {
        if case let .list(l) = value { return l }
        return nil
    }

    var isInlineWhitespace: Bool {
        guard let s = stringText else { return false }
        return s.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    var isNonWhitespace: Bool {
        guard stringText != nil else { return false }
        return !isNewline && !isInlineWhitespace
    }

    /// Keeps the origin of an empty list assigned over a list: `~ x = ()` stays a list of x's kind.
    static func retainListOrigins(old: InkObject?, new: InkObject) {
        guard let oldList = (old as? ValueObject)?.listValue, let newList = (new as? ValueObject)?.listValue else { return }
        if newList.count == 0 { newList.setInitialOriginNames(oldList.originNames) }
    }
}

/// A runtime error with ink's own wording.
public struct StoryError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
