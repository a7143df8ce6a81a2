import FoundationEssentials
import Glibc
import PajamaBasics

/// Harlowe 3's macros (docs/twine.md, "Harlowe"): what each gives (a value, a changer or a command) and
/// what it does to the state.
extension HarloweEvaluator {
    /// Changers that only change how text looks in a browser: the hook is shown, its look dropped.
    static let cosmeticChangers: Set<String> = [
        "transition", "t8n", "transitiontime", "t8ntime", "transitiondelay", "t8ndelay", "transitionskip", "t8nskip",
        "transitiondepart", "t8ndepart", "transitionarrive", "t8narrive", "font", "css", "background", "bg", "textsize", "size",
        "textrotate", "textrotatex", "textrotatey", "hoverstyle", "box", "floatbox", "opacity", "charstyle", "linestyle",
        "linkstyle", "border", "b4r", "bordercolour", "bordercolor", "b4rcolour", "b4rcolor", "cornerradius", "textindent",
        "buttons", "button", "hook", "textweight", "highlight", "textcolour", "textcolor", "colour", "color", "align", "nobr", "collapse",
    ]
    /// Changers whose hook waits for time or an event in a browser: shown at once, once.
    static let timedChangers: Set<String> = ["live", "after", "event", "more", "afterdelay"]

    /// Every macro played (names normalised), for `validate`.
    static let supported: Set<String> = [
        "set", "put", "move", "if", "unless", "elseif", "else", "cond", "print", "display", "either", "random", "visited", "history",
        "link", "linkreveal", "linkrepeat", "linkrerun", "linkgoto", "linkshow", "linkrevealgoto", "click", "clickgoto", "goto",
        "show", "hide", "replace", "append", "prepend", "hidden", "a", "array", "dm", "datamap", "ds", "dataset", "str", "string", "text",
        "num", "number", "count", "range", "min", "max", "round", "floor", "ceil", "abs", "sqrt", "pow", "sorted", "rotated",
        "shuffled", "subarray", "substring", "uppercase", "lowercase", "upperfirst", "lowerfirst", "joined", "datanames",
        "datavalues", "dataentries", "nth", "passage", "textstyle", "stop", "verbatim", "v6m", "rgb", "rgba", "hsl", "hsla",
        "strrepeated", "stringrepeated", "repeated", "reversed", "strreversed", "stringreversed", "trunc", "sign", "source",
        "track", "masteraudio", "newtrack", "newplaylist", "newgroup", "find", "altered", "folded", "allpass", "somepass",
        "nonepass", "pass", "for", "loop",
    ]

    func macro(_ call: HarloweMacroCall) throws(Interrupt) -> HarloweValue {
        let expressions: [HarloweExpr]
        switch call.arguments {
        case .success(let parsed): expressions = parsed
        case .failure(let error): throw .failure("(\(call.written):) \(error.message)")
        }
        do throws(Interrupt) {
            return try run(call, expressions)
        } catch {
            guard case .failure(let message) = error, !message.hasPrefix("(") else { throw error }
            throw .failure("(\(call.written):) \(message)")
        }
    }

    private func changer(_ effects: HarloweChanger.Effect...) -> HarloweValue { .changer(HarloweChanger(effects)) }

    private func run(_ call: HarloweMacroCall, _ expressions: [HarloweExpr]) throws(Interrupt) -> HarloweValue {
        let name = call.name
        switch name {
        case "set", "put", "move":
            for expression in expressions {
                guard case .assignment(let target, let valueExpression, let into) = expression, into == (name != "set") else {
                    throw .failure(name == "set" ? "needs \"$variable to value\"" : "needs \"value into $variable\"")
                }
                it = (try? value(target)) ?? .number(0)
                let newValue = try value(valueExpression)
                try assign(target, newValue)
                if name == "move" { try remove(valueExpression) }
            }
            it = nil
            return .command(.nothing)
        default: break
        }
        let values = try arguments(expressions)
        func string(_ index: Int) throws(Interrupt) -> String {
            guard values.indices.contains(index) else { throw .failure("needs \(index + 1) value\(index == 0 ? "" : "s")") }
            guard case .string(let text) = values[index] else { throw .failure("needs a string, not \(values[index].typeName)") }
            return text
        }
        func number(_ index: Int) throws(Interrupt) -> Double {
            guard values.indices.contains(index) else { throw .failure("needs \(index + 1) value\(index == 0 ? "" : "s")") }
            guard case .number(let number) = values[index].resolved else { throw .failure("needs a number, not \(values[index].typeName)") }
            return number
        }
        func boolean(_ index: Int) throws(Interrupt) -> Bool {
            guard values.indices.contains(index) else { throw .failure("needs a boolean") }
            guard case .bool(let flag) = values[index] else { throw .failure("needs a boolean, not \(values[index].typeName)") }
            return flag
        }
        func hookNames() throws(Interrupt) -> [String] {
            try values.map { value throws(Interrupt) -> String in
                switch value {
                case .hookName(let hook): return hook
                case .string(let text): return text.lowercased()
                default: throw .failure("needs hook names (?name), not \(value.typeName)")
                }
            }
        }
        switch name {
        // Conditions.
        case "if":
            let shown = try boolean(0)
            lastCondition = shown
            return changer(.condition(shown))
        case "unless":
            let shown = !(try boolean(0))
            lastCondition = shown
            return changer(.condition(shown))
        case "elseif":
            let flag = try boolean(0)
            let shown = lastCondition == false && flag
            if lastCondition == false { lastCondition = shown }
            return changer(.condition(shown))
        case "else":
            let shown = lastCondition == false
            lastCondition = true
            return changer(.condition(shown))
        case "cond":
            var index = 0
            while index + 1 < values.count {
                if try boolean(index) { return values[index + 1] }
                index += 2
            }
            guard index < values.count else { throw .failure("no condition was true and there is no value after the last") }
            return values[index]
        // Commands.
        case "print": return .command(.print(values.first ?? .string("")))
        case "display": return .command(.display(try string(0)))
        case "goto": return .command(.goto(try string(0)))
        case "linkgoto":
            let text = try string(0)
            return .command(.linkGoto(text: text, target: values.count > 1 ? try string(1) : text))
        case "clickgoto":
            let target = try string(1)
            let label = values.first.map { value -> String in
                if case .hookName(let hook) = value { return root.hooks(named: hook).map(\.plainText).first ?? hook }
                return value.printed
            } ?? target
            return .command(.linkGoto(text: label, target: target))
        case "show": return .command(.show(try hookNames()))
        case "hide": return .command(.hide(try hookNames()))
        case "stop": return .command(.nothing)
        // Changers.
        case "link": return changer(.link(text: try string(0), keepsText: false, repeats: false, goto: nil))
        case "linkreveal": return changer(.link(text: try string(0), keepsText: true, repeats: false, goto: nil))
        case "linkrepeat", "linkrerun": return changer(.link(text: try string(0), keepsText: true, repeats: true, goto: nil))
        case "linkshow":
            let names = try hookNames().dropFirst().map { "?" + $0 }.joined(separator: ", ")
            return .command(.reveal(text: try string(0), source: "(show: \(names))"))
        case "linkrevealgoto":
            let target = values.count > 1 ? try string(1) : try string(0)
            return changer(.link(text: try string(0), keepsText: true, repeats: false, goto: target))
        case "click":
            switch values.first {
            case .hookName(let hook)?: return changer(.click(target: hook))
            case .string(let text)?: return changer(.click(target: text))
            default: throw .failure("needs a hook name or a string")
            }
        case "replace": return changer(.replace(try hookNames()))
        case "append": return changer(.append(try hookNames()))
        case "prepend": return changer(.prepend(try hookNames()))
        case "hidden": return changer(.hidden)
        case "textstyle":
            var effects: [HarloweChanger.Effect] = []
            for value in values {
                switch value.printed.lowercased() {
                case "bold": effects.append(.style("b"))
                case "italic": effects.append(.style("i"))
                case "underline": effects.append(.style("u"))
                case "strike", "fade-in-out", "blur", "shadow", "mark": effects.append(.style("span class=\"dim\""))
                default: break
                }
            }
            return .changer(HarloweChanger(effects))
        case "textcolour", "textcolor", "colour", "color": return changer(.colour(values.first?.printed ?? ""))
        case "align": return changer(.align(values.first?.printed ?? ""))
        case "verbatim", "v6m": return .changer(HarloweChanger([]))
        case "rgb", "rgba":
            let alpha: Double = try values.count > 3 ? number(3) : 1
            return .colour(HarloweStyle.rgb(try number(0), try number(1), try number(2), alpha: alpha))
        case "hsl", "hsla":
            let alpha: Double = try values.count > 3 ? number(3) : 1
            return .colour(HarloweStyle.hsl(try number(0), try number(1), try number(2), alpha: alpha))
        // Randomness, seeded by the reading.
        case "either":
            guard !values.isEmpty else { throw .failure("needs at least one value") }
            return values[state.integer(0, values.count - 1)]
        case "random":
            return .number(Double(state.integer(Int(try number(0).rounded()), Int(try number(values.count > 1 ? 1 : 0).rounded()))))
        case "shuffled":
            var items = values
            if items.count > 1 {
                for index in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(index, state.integer(0, index)) }
            }
            return .array(items)
        // Visits.
        case "visited":
            if values.isEmpty { return .bool(true) }
            let target = try string(0)
            return .bool(state.history.contains(target))
        case "history": return .array(state.history.dropLast().map { .string($0) })
        case "passage":
            let target = values.isEmpty ? passage : try string(0)
            guard let found = runtime.story.passage(named: target) else { throw .failure("there is no passage named \"\(target)\"") }
            return .datamap(["name": .string(found.name), "tags": .array(found.tags.map { .string($0) }), "source": .string(found.text)])
        // Data.
        case "a", "array": return .array(values)
        case "ds", "dataset": return .dataset(Self.unique(values))
        case "dm", "datamap":
            guard values.count % 2 == 0 else { throw .failure("needs names and values in pairs") }
            var entries: [String: HarloweValue] = [:]
            for index in stride(from: 0, to: values.count, by: 2) { entries[values[index].printed] = values[index + 1] }
            return .datamap(entries)
        case "str", "string", "text": return .string(values.map(\.printed).joined())
        case "num", "number":
            guard let value = values.first else { throw .failure("needs a value") }
            if case .number = value { return value }
            guard let parsed = Double(value.printed.trimmingSpaces()) else { throw .failure("\"\(value.printed)\" is not a number") }
            return .number(parsed)
        case "count":
            guard let container = values.first else { throw .failure("needs a value") }
            let items = Self.items(container)
            if case .string(let text) = container, values.count > 1, case .string(let part) = values[1], !part.isEmpty {
                return .number(Double(text.components(separatedBy: part).count - 1))
            }
            return .number(Double(values.dropFirst().reduce(0) { total, wanted in total + items.filter { $0.isEqual(wanted) }.count }))
        case "range":
            let (a, b) = (Int(try number(0)), Int(try number(1)))
            guard abs(b - a) <= 100_000 else { throw .failure("a range of more than 100,000 numbers") }
            return .array(stride(from: a, through: b, by: a <= b ? 1 : -1).map { .number(Double($0)) })
        case "min", "max":
            let numbers = try values.indices.map { index throws(Interrupt) in try number(index) }
            guard let result = name == "min" ? numbers.min() : numbers.max() else { throw .failure("needs numbers") }
            return .number(result)
        case "round": return .number((try number(0)).rounded(.toNearestOrAwayFromZero))
        case "floor": return .number((try number(0)).rounded(.down))
        case "ceil": return .number((try number(0)).rounded(.up))
        case "trunc": return .number((try number(0)).rounded(.towardZero))
        case "abs": return .number(abs(try number(0)))
        case "sign":
            let value = try number(0)
            return .number(value > 0 ? 1 : value < 0 ? -1 : 0)
        case "sqrt": return .number((try number(0)).squareRoot())
        case "pow": return .number(pow(try number(0), try number(1)))
        case "sorted":
            if case .lambda? = values.first { return .array(try sorted(by: try lambda(values.first), Array(values.dropFirst()))) }
            return .array(values.sorted(by: Self.ordered))
        case "reversed": return .array(values.reversed())
        case "rotated":
            let shift = Int(try number(0))
            var items = Array(values.dropFirst())
            guard !items.isEmpty else { return .array([]) }
            let offset = ((shift % items.count) + items.count) % items.count
            items = Array(items[(items.count - offset)...] + items[..<(items.count - offset)])
            return .array(items)
        case "subarray", "substring":
            let items = Self.items(values.first ?? .array([]))
            let count = items.count
            func index(_ position: Double) -> Int { let p = Int(position); return p < 0 ? count + p : p - 1 }
            let from = max(0, index(try number(1)))
            let to = min(count - 1, index(try number(2)))
            let slice = from <= to ? Array(items[from...to]) : []
            return name == "subarray" ? .array(slice) : .string(slice.map(\.printed).joined())
        case "uppercase": return .string((try string(0)).uppercased())
        case "lowercase": return .string((try string(0)).lowercased())
        case "upperfirst": let text = try string(0); return .string(text.prefix(1).uppercased() + text.dropFirst())
        case "lowerfirst": let text = try string(0); return .string(text.prefix(1).lowercased() + text.dropFirst())
        case "strreversed", "stringreversed": return .string(String((try string(0)).reversed()))
        case "strrepeated", "stringrepeated", "repeated":
            let times = Int(try number(0))
            guard (0...10_000).contains(times) else { throw .failure("cannot repeat \(times) times") }
            if name == "repeated" { return .array(Array(repeating: Array(values.dropFirst()), count: times).flatMap { $0 }) }
            return .string(String(repeating: try string(1), count: times))
        case "joined": return .string(values.dropFirst().map(\.printed).joined(separator: try string(0)))
        case "nth":
            let position = Int(try number(0))
            let items = Array(values.dropFirst())
            guard !items.isEmpty, position > 0 else { throw .failure("needs a position from 1 and values") }
            return items[(position - 1) % items.count]
        case "datanames", "datavalues", "dataentries":
            guard case .datamap(let entries)? = values.first else { throw .failure("needs a datamap") }
            let names = entries.keys.sorted()
            switch name {
            case "datanames": return .array(names.map { .string($0) })
            case "datavalues": return .array(names.map { entries[$0]! })
            default: return .array(names.map { .datamap(["name": .string($0), "value": entries[$0]!]) })
            }
        case "source":
            return .string(values.first.map(\.printed) ?? "")
        case let lambda where Self.lambdaMacros.contains(lambda):
            return try lambdaMacro(name, values)
        case let audio where Self.audioMacros.contains(audio):
            return try self.audio(name, values)
        default:
            // A timed hook is shown at once, as Harlowe's page looks once its time came (nothing is written of the wait).
            if Self.cosmeticChangers.contains(name) || Self.timedChangers.contains(name) { return .changer(HarloweChanger([])) }
            note(unsupported: call.written.lowercased())
            if call.hook != nil { return changer(.unsupported(call.written.lowercased())) }
            return .command(.unsupported(call.written.lowercased()))
        }
    }

    /// `(move:)`: the value moved out of where it was (a variable is set to 0; an item is taken out).
    private func remove(_ source: HarloweExpr) throws(Interrupt) {
        switch source {
        case .variable(let name): state.variables[name] = nil
        case .temp(let name): temps[name] = nil
        case .property(let baseExpression, let property):
            var base = try value(baseExpression)
            switch (base, property) {
            case (.datamap(var entries), .name(let key)):
                entries[key] = nil
                base = .datamap(entries)
            case (.datamap(var entries), .computed(let expression)):
                entries[try value(expression).printed] = nil
                base = .datamap(entries)
            case (.array(var items), _):
                let position: Int
                if case .name(let word) = property, let found = Self.position(word.lowercased()) { position = found } else if case .computed(let expression) = property,
                    case .number(let number) = try value(expression)
                {
                    position = Int(number)
                } else {
                    return
                }
                let index = position > 0 ? position - 1 : items.count + position
                if items.indices.contains(index) { items.remove(at: index) }
                base = .array(items)
            default: return
            }
            try assign(baseExpression, base)
        default: break
        }
    }
}

