import FoundationEssentials
import Glibc
import PajamaBasics

/// Values of expressions (Harlowe 3's operators and properties).
extension HarloweEvaluator {
    func value(_ expression: HarloweExpr) throws(Interrupt) -> HarloweValue {
        switch expression {
        case .literal(let value): return value
        case .variable(let name): return state.variables[name] ?? .number(0)
        case .temp(let name): return temps[name] ?? .number(0)
        case .hookName(let name): return .hookName(name)
        case .it: return it ?? .number(0)
        case .word(let word):
            if let colour = HarloweStyle.colours[word] { return .colour(colour) }
            switch word {
            case "visits", "visit": return .number(Double(state.history.filter { $0 == passage }.count))
            case "time": return .number(0)
            case "exits", "exit": return .number(Double(links.count))
            default: return .string(word)  // a type name (`is a number`) or a word Harlowe would refuse
            }
        case .macro(let call): return try macro(call)
        case .not(let inner):
            guard case .bool(let flag) = try value(inner) else { throw .failure("\"not\" needs a boolean") }
            return .bool(!flag)
        case .negate(let inner):
            guard case .number(let number) = try value(inner).resolved else { throw .failure("\"-\" needs a number") }
            return .number(-number)
        case .spread(let inner): return try value(inner)
        case .property(let base, let property): return try self.property(try value(base), property)
        case .assignment: throw .failure("\"to\" and \"into\" belong in (set:), (put:) or (move:)")
        case .lambda(let source): return .lambda(source)
        case .binary(let op, let left, let right): return try binary(op, left, right)
        }
    }

    /// The values of arguments, `...` spread into their items.
    func arguments(_ expressions: [HarloweExpr]) throws(Interrupt) -> [HarloweValue] {
        var result: [HarloweValue] = []
        for expression in expressions {
            if case .spread(let inner) = expression {
                switch try value(inner) {
                case .array(let items), .dataset(let items): result += items
                case .string(let text): result += text.map { .string(String($0)) }
                case let other: result.append(other)
                }
            } else {
                result.append(try value(expression))
            }
        }
        return result
    }

    private func binary(_ op: String, _ leftExpression: HarloweExpr, _ rightExpression: HarloweExpr) throws(Interrupt) -> HarloweValue {
        if op == "and" || op == "or" {
            guard case .bool(let left) = try value(leftExpression) else { throw .failure("\"\(op)\" needs booleans on both sides") }
            if op == "and" && !left { return .bool(false) }
            if op == "or" && left { return .bool(true) }
            guard case .bool(let right) = try value(rightExpression) else { throw .failure("\"\(op)\" needs booleans on both sides") }
            return .bool(right)
        }
        let left = try value(leftExpression).resolved
        if HarloweExpr.comparisons.contains(op) { it = left }
        let right = try value(rightExpression).resolved
        switch op {
        case "is": return .bool(left.isEqual(right))
        case "is not": return .bool(!left.isEqual(right))
        case "contains": return .bool(try contains(left, right))
        case "does not contain": return .bool(!(try contains(left, right)))
        case "is in": return .bool(try contains(right, left))
        case "is not in": return .bool(!(try contains(right, left)))
        case "is a": return .bool(Self.isA(left, right.printed))
        case "<", ">", "<=", ">=":
            switch (left, right) {
            case (.number(let a), .number(let b)):
                return .bool(op == "<" ? a < b : op == ">" ? a > b : op == "<=" ? a <= b : a >= b)
            case (.string(let a), .string(let b)):
                return .bool(op == "<" ? a < b : op == ">" ? a > b : op == "<=" ? a <= b : a >= b)
            default: throw .failure("cannot compare \(left.typeName) with \(right.typeName) using \(op)")
            }
        case "+": return try add(left, right)
        case "-":
            switch (left, right) {
            case (.number(let a), .number(let b)): return .number(a - b)
            case (.string(let a), .string(let b)): return .string(b.isEmpty ? a : a.replacing(b, with: ""))
            case (.array(let a), .array(let b)): return .array(a.filter { item in !b.contains { $0.isEqual(item) } })
            case (.dataset(let a), .dataset(let b)): return .dataset(a.filter { item in !b.contains { $0.isEqual(item) } })
            default: throw .failure("cannot subtract \(right.typeName) from \(left.typeName)")
            }
        case "*", "/", "%":
            guard case .number(let a) = left, case .number(let b) = right else { throw .failure("\"\(op)\" needs numbers, not \(left.typeName) and \(right.typeName)") }
            if op != "*", b == 0 { throw .failure("cannot divide by zero") }
            return .number(op == "*" ? a * b : op == "/" ? a / b : a.truncatingRemainder(dividingBy: b))
        default:
            throw .failure("unknown operator \(op)")
        }
    }

    private func add(_ left: HarloweValue, _ right: HarloweValue) throws(Interrupt) -> HarloweValue {
        switch (left, right) {
        case (.number(let a), .number(let b)): return .number(a + b)
        case (.string(let a), .string(let b)): return .string(a + b)
        case (.array(let a), .array(let b)): return .array(a + b)
        case (.datamap(let a), .datamap(let b)): return .datamap(a.merging(b) { $1 })
        case (.dataset(let a), .dataset(let b)): return .dataset(Self.unique(a + b))
        case (.changer(let a), .changer(let b)): return .changer(HarloweChanger(a.effects + b.effects))
        case (.colour(let a), .colour(let b)):
            guard let blend = HarloweStyle.blend(a, b) else { throw .failure("cannot blend \(a) and \(b)") }
            return .colour(blend)
        default: throw .failure("cannot add \(right.typeName) to \(left.typeName)")
        }
    }

    static func unique(_ items: [HarloweValue]) -> [HarloweValue] {
        var result: [HarloweValue] = []
        for item in items where !result.contains(where: { $0.isEqual(item) }) { result.append(item) }
        return result
    }

    private func contains(_ container: HarloweValue, _ item: HarloweValue) throws(Interrupt) -> Bool {
        switch container {
        case .string(let text):
            guard case .string(let part) = item else { throw .failure("a string can only contain strings, not \(item.typeName)") }
            return text.contains(part)
        case .array(let items), .dataset(let items): return items.contains { $0.isEqual(item) }
        case .datamap(let entries): return entries[item.printed] != nil
        default: throw .failure("\(container.typeName) cannot contain anything")
        }
    }

    static func isA(_ value: HarloweValue, _ type: String) -> Bool {
        switch (value, type.lowercased()) {
        case (.number, "number"), (.number, "num"), (.string, "string"), (.string, "str"), (.bool, "boolean"), (.bool, "bool"),
            (.array, "array"), (.datamap, "datamap"), (.datamap, "dm"), (.dataset, "dataset"), (.dataset, "ds"),
            (.colour, "colour"), (.colour, "color"), (.changer, "changer"), (.command, "command"):
            return true
        default:
            return false
        }
    }

    // MARK: Properties

    func property(_ base: HarloweValue, _ property: HarloweProperty) throws(Interrupt) -> HarloweValue {
        switch property {
        case .name(let name):
            let lower = name.lowercased()
            if case .datamap(let entries) = base {
                guard let found = entries[name] ?? entries[lower] else { throw .failure("the datamap has no name \"\(name)\"") }
                return found
            }
            if case .colour(let colour) = base {
                guard let value = HarloweStyle.property(lower, of: colour) else { throw .failure("a colour has no \"\(name)\"") }
                return .number(value)
            }
            if lower == "length" {
                switch base {
                case .string(let text): return .number(Double(text.count))
                case .array(let items), .dataset(let items): return .number(Double(items.count))
                default: throw .failure("\(base.typeName) has no length")
                }
            }
            if lower == "random" {
                let items = Self.items(base)
                guard !items.isEmpty else { throw .failure("cannot take a random item of an empty \(base.typeName)") }
                return items[state.integer(0, items.count - 1)]
            }
            guard let position = Self.position(lower) else { throw .failure("\(base.typeName) has no \"\(name)\"") }
            return try item(of: base, at: position)
        case .computed(let expression):
            let key = try value(expression)
            if case .datamap(let entries) = base {
                guard let found = entries[key.printed] else { throw .failure("the datamap has no name \"\(key.printed)\"") }
                return found
            }
            guard case .number(let index) = key else {
                if case .string(let word) = key { return try self.property(base, .name(word)) }
                throw .failure("cannot use \(key.typeName) as a position")
            }
            return try item(of: base, at: Int(index))
        }
    }

    static func items(_ value: HarloweValue) -> [HarloweValue] {
        switch value {
        case .array(let items), .dataset(let items): items
        case .string(let text): text.map { .string(String($0)) }
        default: []
        }
    }

    /// `1st` is 1, `last` is -1, `2ndlast` is -2.
    static func position(_ word: String) -> Int? {
        if word == "last" { return -1 }
        for suffix in ["stlast", "ndlast", "rdlast", "thlast"] where word.hasSuffix(suffix) {
            return Int(word.dropLast(suffix.count)).map { -$0 }
        }
        for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) {
            return Int(word.dropLast(suffix.count))
        }
        return nil
    }

    /// The item at a 1-based position (negative from the end).
    private func item(of base: HarloweValue, at position: Int) throws(Interrupt) -> HarloweValue {
        switch base {
        case .array, .string, .dataset: return try pick(Self.items(base), position, base)
        default: throw .failure("\(base.typeName) has no positions")
        }
    }

    private func pick(_ items: [HarloweValue], _ position: Int, _ base: HarloweValue) throws(Interrupt) -> HarloweValue {
        let index = position > 0 ? position - 1 : items.count + position
        guard position != 0, items.indices.contains(index) else {
            throw .failure("\(base.typeName) of \(items.count) has no item \(position)")
        }
        return items[index]
    }

    // MARK: Assignment

    /// Sets `target` (`$x`, `_x`, `$x's name`) to `newValue`.
    func assign(_ target: HarloweExpr, _ newValue: HarloweValue) throws(Interrupt) {
        switch target {
        case .variable(let name): state.variables[name] = newValue
        case .temp(let name): temps[name] = newValue
        case .property(let baseExpression, let property):
            var base = try value(baseExpression)
            let key: HarloweValue
            switch property {
            case .name(let name):
                if case .datamap = base { key = .string(name) } else if let position = Self.position(name.lowercased()) { key = .number(Double(position)) } else {
                    throw .failure("cannot set \"\(name)\" of \(base.typeName)")
                }
            case .computed(let expression): key = try value(expression)
            }
            switch (base, key) {
            case (.datamap(var entries), _):
                entries[key.printed] = newValue
                base = .datamap(entries)
            case (.array(var items), .number(let number)):
                let position = Int(number)
                let index = position > 0 ? position - 1 : items.count + position
                if index == items.count { items.append(newValue) } else {
                    guard position != 0, items.indices.contains(index) else { throw .failure("the array of \(items.count) has no item \(position)") }
                    items[index] = newValue
                }
                base = .array(items)
            default: throw .failure("cannot set an item of \(base.typeName)")
            }
            try assign(baseExpression, base)
        default:
            throw .failure("only variables and their items can be set")
        }
    }
}
