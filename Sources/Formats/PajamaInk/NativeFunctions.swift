/// ink's operators and maths/list builtins (`+`, `==`, `MIN`, `LIST_COUNT`, ...), with ink's coercions.
final class NativeFunctionCall: InkObject {
    let name: String
    let numberOfParameters: Int

    static let unaryNames: Set<String> = [
        "_", "!", "FLOOR", "CEILING", "INT", "FLOAT", "LIST_COUNT", "LIST_VALUE", "LIST_MIN", "LIST_MAX", "LIST_ALL",
        "LIST_INVERT",
    ]
    static let binaryNames: Set<String> = [
        "+", "-", "/", "*", "%", "==", ">", "<", ">=", "<=", "!=", "&&", "||", "MAX", "MIN", "POW", "?", "!?", "^",
    ]

    static func exists(_ name: String) -> Bool { unaryNames.contains(name) || binaryNames.contains(name) }

    init(name: String) {
        self.name = name
        numberOfParameters = NativeFunctionCall.unaryNames.contains(name) ? 1 : 2
    }

    func call(_ parameters: [InkObject]) throws(StoryError) -> InkValue {
        var values: [InkValue] = []
        var hasList = false
        for p in parameters {
            guard let v = p as? ValueObject else {
                throw StoryError(
                    "Attempting to perform operation on a void value. Did you forget to 'return' a value from a function you called here?"
                )
            }
            if case .list = v.value { hasList = true }
            values.append(v.value)
        }
        if values.count == 2 && hasList { return try binaryListOperation(values[0], values[1]) }
        let coerced = try coerce(values)
        if coerced.count == 2 { return try binary(coerced[0], coerced[1]) }
        return try unary(coerced[0])
    }

    private func coerce(_ values: [InkValue]) throws(StoryError) -> [InkValue] {
        var rank = 0
        var specialList: InkList?
        for v in values {
            if v.typeRank > rank { rank = v.typeRank }
            if case let .list(l) = v { specialList = l }
        }
        if rank == 2 {
            var out: [InkValue] = []
            for v in values {
                switch v {
                case .list: out.append(v)
                case let .int(i):
                    guard let origin = specialList?.originOfMaxItem else {
                        throw StoryError("Could not find List item with the value \(i) in an unknown list")
                    }
                    guard let item = origin.item(withValue: i) else {
                        throw StoryError("Could not find List item with the value \(i) in \(origin.name)")
                    }
                    out.append(.list(InkList(single: item, value: i)))
                default:
                    throw StoryError("Cannot mix Lists and \(v.typeName) values in this operation")
                }
            }
            return out
        }
        var out: [InkValue] = []
        for v in values { out.append(try v.cast(toRank: rank)) }
        return out
    }

    private func unsupported(_ v: InkValue) -> StoryError {
        StoryError("Cannot perform operation '\(name)' on \(v.typeName)")
    }

    private static func wrap(_ x: Int) -> Int { Int(Int32(truncatingIfNeeded: x)) }

    /// Whether `text` holds `part` as a run of the same Unicode scalars (ink's ordinal `?`). Searching the
    /// UTF-8 bytes is the same: a scalar's encoding never starts inside another's.
    static func ordinalContains(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8), needle = Array(part.utf8)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    private func binary(_ a: InkValue, _ b: InkValue) throws(StoryError) -> InkValue {
        switch (a, b) {
        case let (.int(x), .int(y)):
            switch name {
            case "+": return .int(Self.wrap(x &+ y))
            case "-": return .int(Self.wrap(x &- y))
            case "*": return .int(Self.wrap(x &* y))
            case "/":
                guard y != 0 else { throw StoryError("Attempted to divide by zero") }
                return .int(Self.wrap(x / y))
            case "%":
                guard y != 0 else { throw StoryError("Attempted to divide by zero") }
                return .int(x % y)
            case "MAX": return .int(max(x, y))
            case "MIN": return .int(min(x, y))
            case "POW": return .float(Float(pow(Double(x), Double(y))))
            default:
                if let result = compare(x, y) { return result }
                throw unsupported(a)
            }
        case let (.float(x), .float(y)):
            switch name {
            case "+": return .float(x + y)
            case "-": return .float(x - y)
            case "*": return .float(x * y)
            case "/": return .float(x / y)
            case "%": return .float(x.truncatingRemainder(dividingBy: y))
            case "MAX": return .float(max(x, y))
            case "MIN": return .float(min(x, y))
            case "POW": return .float(Float(pow(Double(x), Double(y))))
            default:
                if let result = compare(x, y) { return result }
                throw unsupported(a)
            }
        case let (.string(x), .string(y)):
            switch name {
            case "+": return .string(x + y)
            // Ordinal, as ink compares strings: Swift's String == and contains(_:) treat canonically
            // equivalent text as equal ("é" and "e" + U+0301) and match whole Characters only.
            case "==": return .bool(x.utf8.elementsEqual(y.utf8))
            case "!=": return .bool(!x.utf8.elementsEqual(y.utf8))
            case "?": return .bool(Self.ordinalContains(x, y))
            case "!?": return .bool(!Self.ordinalContains(x, y))
            default: throw unsupported(a)
            }
        case let (.list(x), .list(y)):
            switch name {
            case "+": return .list(x.union(y))
            case "-": return .list(x.without(y))
            case "?": return .bool(x.contains(y))
            case "!?": return .bool(!x.contains(y))
            case "^": return .list(x.intersect(y))
            case "==": return .bool(x.equals(y))
            case ">": return .bool(x.greaterThan(y))
            case "<": return .bool(x.lessThan(y))
            case ">=": return .bool(x.greaterThanOrEquals(y))
            case "<=": return .bool(x.lessThanOrEquals(y))
            case "!=": return .bool(!x.equals(y))
            case "&&": return .bool(x.count > 0 && y.count > 0)
            case "||": return .bool(x.count > 0 || y.count > 0)
            default: throw unsupported(a)
            }
        case let (.divertTarget(x), .divertTarget(y)):
            switch name {
            case "==": return .bool(x == y)
            case "!=": return .bool(x != y)
            default: throw unsupported(a)
            }
        default:
            throw unsupported(a)
        }
    }

    /// Comparisons and logic, the same for ints and floats (zero is false).
    private func compare<T: Comparable & Numeric>(_ x: T, _ y: T) -> InkValue? {
        switch name {
        case "==": return .bool(x == y)
        case ">": return .bool(x > y)
        case "<": return .bool(x < y)
        case ">=": return .bool(x >= y)
        case "<=": return .bool(x <= y)
        case "!=": return .bool(x != y)
        case "&&": return .bool(x != 0 && y != 0)
        case "||": return .bool(x != 0 || y != 0)
        default: return nil
        }
    }

    private func unary(_ a: InkValue) throws(StoryError) -> InkValue {
        switch a {
        case let .int(x):
            switch name {
            case "_": return .int(Self.wrap(0 &- x))
            case "!": return .bool(x == 0)
            case "FLOOR", "CEILING", "INT": return .int(x)
            case "FLOAT": return .float(Float(x))
            default: throw unsupported(a)
            }
        case let .float(x):
            switch name {
            case "_": return .float(-x)
            case "!": return .bool(x == 0)
            case "FLOOR": return .float(x.rounded(.down))
            case "CEILING": return .float(x.rounded(.up))
            case "INT": return .int(InkValue.truncate(x))
            case "FLOAT": return .float(x)
            default: throw unsupported(a)
            }
        case let .list(x):
            switch name {
            case "!": return .int(x.count == 0 ? 1 : 0)
            case "LIST_INVERT": return .list(x.inverse)
            case "LIST_ALL": return .list(x.all)
            case "LIST_MIN": return .list(x.minAsList())
            case "LIST_MAX": return .list(x.maxAsList())
            case "LIST_COUNT": return .int(x.count)
            case "LIST_VALUE": return .int(x.maxItem?.1 ?? 0)
            default: throw unsupported(a)
            }
        default:
            throw unsupported(a)
        }
    }

    private func binaryListOperation(_ a: InkValue, _ b: InkValue) throws(StoryError) -> InkValue {
        if name == "+" || name == "-", case let .list(list) = a, case let .int(delta) = b {
            let result = InkList()
            for (item, value) in list.orderedItems {
                let target = name == "+" ? value + delta : value - delta
                if let origin = list.origins.first(where: { $0.name == item.originName }),
                   let incremented = origin.item(withValue: target) {
                    result.add(incremented, target)
                }
            }
            return .list(result)
        }
        if name == "&&" || name == "||" {
            let isListPair: Bool
            if case .list = a, case .list = b { isListPair = true } else { isListPair = false }
            if !isListPair {
                let x = try a.isTruthy, y = try b.isTruthy
                return .bool(name == "&&" ? (x && y) : (x || y))
            }
        }
        if case .list = a, case .list = b { return try binary(a, b) }
        throw StoryError("Can not call use '\(name)' operation on \(a.typeName) and \(b.typeName)")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
