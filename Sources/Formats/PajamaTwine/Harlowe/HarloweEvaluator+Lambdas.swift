import PajamaBasics
/// The macros that take a lambda (Harlowe 3's manual): `(find:)`, `(altered:)`, `(folded:)`, `(all-pass:)`,
/// `(some-pass:)`, `(none-pass:)`, `(count:)` of matches, `(sorted:)` with `via`, and the `(for:)` changer.
extension HarloweEvaluator {
    static let lambdaMacros: Set<String> = ["find", "altered", "folded", "allpass", "somepass", "nonepass", "pass", "for", "loop"]

    /// The lambda a macro's first value is, read.
    func lambda(_ value: HarloweValue?) throws(Interrupt) -> HarloweLambda {
        guard case .lambda(let source)? = value else { throw .failure("needs a lambda (_item where ..., _item via ...) first") }
        switch HarloweLambda.parse(source) {
        case .success(let lambda): return lambda
        case .failure(let error): throw .failure(error.message)
        }
    }

    /// `expression` with `item` in the lambda's variable (and `it`), and `total` in its `making` variable.
    func apply(_ lambda: HarloweLambda, _ expression: HarloweExpr, to item: HarloweValue, total: HarloweValue? = nil) throws(Interrupt) -> HarloweValue {
        let saved = (temps, it)
        defer { (temps, it) = saved }
        if let variable = lambda.variable { temps[variable] = item }
        if let making = lambda.making, let total { temps[making] = total }
        it = item
        return try value(expression)
    }

    /// Whether `item` passes the lambda's `where` (every item passes a lambda without one).
    func passes(_ lambda: HarloweLambda, _ item: HarloweValue) throws(Interrupt) -> Bool {
        guard let condition = lambda.condition else { return true }
        guard case .bool(let passed) = try apply(lambda, condition, to: item) else { throw .failure("a lambda's where must give true or false") }
        return passed
    }

    /// The items that pass the lambda's `where`, in order.
    func matching(_ lambda: HarloweLambda, _ items: [HarloweValue]) throws(Interrupt) -> [HarloweValue] {
        var result: [HarloweValue] = []
        for item in items where try passes(lambda, item) { result.append(item) }
        return result
    }

    func lambdaMacro(_ name: String, _ values: [HarloweValue]) throws(Interrupt) -> HarloweValue {
        let lambda = try lambda(values.first)
        let items = Array(values.dropFirst())
        switch name {
        case "find":
            return .array(try matching(lambda, items))
        case "altered":
            guard let via = lambda.via else { throw .failure("needs a via lambda (_item via ...)") }
            var result: [HarloweValue] = []
            for item in items where try passes(lambda, item) { result.append(try apply(lambda, via, to: item)) }
            return .array(result)
        case "folded":
            guard let via = lambda.via, lambda.making != nil else { throw .failure("needs a making lambda (_item making _total via ...)") }
            guard var total = items.first else { throw .failure("needs a value to start from") }
            for item in items.dropFirst() where try passes(lambda, item) { total = try apply(lambda, via, to: item, total: total) }
            return total
        case "allpass", "pass":
            return .bool(try matching(lambda, items).count == items.count)
        case "somepass":
            return .bool(try !matching(lambda, items).isEmpty)
        case "nonepass":
            return .bool(try matching(lambda, items).isEmpty)
        default:  // for, loop
            guard let variable = lambda.variable else { throw .failure("needs each _item") }
            return .changer(HarloweChanger([.repeating(variable: variable, items: try matching(lambda, items))]))
        }
    }

    /// `(sorted: via _item's name, ...values)`: ordered by what the lambda gives each.
    func sorted(by lambda: HarloweLambda, _ items: [HarloweValue]) throws(Interrupt) -> [HarloweValue] {
        guard let via = lambda.via else { throw .failure("sorts by a via lambda (_item via ...)") }
        var keyed: [(key: HarloweValue, item: HarloweValue)] = []
        for item in items { keyed.append((try apply(lambda, via, to: item), item)) }
        return keyed.sorted { Self.ordered($0.key, $1.key) }.map(\.item)
    }

    /// Harlowe's order for `(sorted:)`: numbers by value, everything else by its text, numbers as people read them.
    static func ordered(_ a: HarloweValue, _ b: HarloweValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return x < y }
        return a.printed.precedesNaturally(b.printed)
    }
}
