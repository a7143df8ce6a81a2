import FoundationEssentials
import Glibc
import PajamaBasics

/// Tokens read from the front, as scene.js's `stack.shift()`.
struct CSTokenStream {
    private var tokens: [CSToken]
    private var index = 0

    init(_ tokens: [CSToken]) { self.tokens = tokens }

    var isEmpty: Bool { index >= tokens.count }
    var peek: CSToken? { isEmpty ? nil : tokens[index] }
    var remaining: ArraySlice<CSToken> { tokens[index...] }

    mutating func next() -> CSToken? {
        guard index < tokens.count else { return nil }
        defer { index += 1 }
        return tokens[index]
    }

    mutating func insert(_ token: CSToken) { tokens.insert(token, at: index) }

    mutating func skip(_ count: Int) { index = min(tokens.count, index + count) }
}

extension CSRuntime {
    /// The value of expression `text`.
    func evaluate(_ text: String) throws(CSError) -> CSValue {
        var stream = CSTokenStream(try CSToken.tokenize(text))
        return try evaluate(&stream, closing: nil)
    }

    /// scene.js's evaluateExpr: one value, or two values and one operator; `closing` the token that must end a
    /// parenthetical.
    func evaluate(_ stream: inout CSTokenStream, closing: CSToken.Kind?) throws(CSError) -> CSValue {
        guard let first = stream.next() else { throw CSError("no expression specified") }
        let left = try valueToken(first, &stream)
        guard let token = stream.next() else {
            if let closing { throw CSError("Invalid expression, expected \(closing.rawValue)") }
            return left
        }
        if let closing, token.kind == closing { return left }
        guard Self.operators.contains(token.value) else {
            throw CSError("Invalid expression at char \(token.position), expected OPERATOR\(closing.map { " or " + $0.rawValue } ?? ""), was: \(token.kind.rawValue) [\(token.value)]")
        }
        guard let next = stream.peek else { throw CSError("Invalid expression at char \(token.position), expected something after a \(token.value)") }
        let right: CSValue
        if next.kind == .function, next.value == "auto" {
            // auto(percentage, id): the balanced value ChoiceScript computes from many runs; 50 without them.
            stream.skip(5)
            right = .number(50)
        } else {
            _ = stream.next()
            right = try valueToken(next, &stream)
        }
        let result = try apply(token.value, left, right)
        if let closing {
            guard let end = stream.next() else { throw CSError("Invalid expression, expected \(closing.rawValue)") }
            guard end.kind == closing else {
                throw CSError("Invalid expression at char \(end.position), expected \(closing.rawValue), was: \(end.kind.rawValue) [\(end.value)]")
            }
            return result
        }
        if let extra = stream.next() {
            throw CSError("Invalid expression at char \(extra.position), expected no more tokens, found: \(extra.kind.rawValue) [\(extra.value)]")
        }
        return result
    }

    static let operators: Set<String> = ["+", "-", "*", "/", "^", "&", "#", "%+", "%-", "=", "<", ">", "<=", ">=", "!=", "and", "or", "modulo"]

    func apply(_ name: String, _ left: CSValue, _ right: CSValue) throws(CSError) -> CSValue {
        switch name {
        case "+": return .number(try number(left) + number(right))
        case "-": return .number(try number(left) - number(right))
        case "*": return .number(try number(left) * number(right))
        case "/":
            let divisor = try number(right)
            if divisor == 0 { throw CSError("can't divide by zero") }
            return .number(try number(left) / divisor)
        case "^": return .number(Glibc.pow(try number(left), try number(right)))
        case "&": return .string(left.text + right.text)
        case "#":
            let position = try number(right)
            let units = Array(left.text.utf16)
            if position < 1 { throw CSError("There is no character at position \(CSValue.format(position)); the position must be greater than or equal to 1.") }
            if Int(position) > units.count {
                throw CSError("There is no character at position \(CSValue.format(position)). \"\(left.text)\" is only \(units.count) characters long.")
            }
            return .string(String(decoding: [units[Int(position) - 1]], as: UTF16.self))
        case "%+", "%-":
            let value = try number(left)
            var change = try number(right)
            if name == "%-" { change = -change }
            guard value >= 0, value <= 100 else { throw CSError("Can't fairAdd to non-percentile value: \(CSValue.format(value))") }
            if change > 0 {
                return .number(Swift.min(99, (value + change * (100 - value) / 100).rounded(.down)))
            }
            return .number(Swift.max(1, (value - (-change) * value / 100).rounded(.up)))
        case "=": return .bool(CSValue.looselyEqual(left, right) || left.text == right.text)
        case "!=": return .bool(!CSValue.looselyEqual(left, right))
        case "<": return .bool(try number(left) < number(right))
        case ">": return .bool(try number(left) > number(right))
        case "<=": return .bool(try number(left) <= number(right))
        case ">=": return .bool(try number(left) >= number(right))
        case "and":
            let a = try truth(left)
            let b = try truth(right)
            return .bool(a && b)
        case "or":
            let a = try truth(left)
            let b = try truth(right)
            return .bool(a || b)
        case "modulo": return .number(try number(left).truncatingRemainder(dividingBy: try number(right)))
        default: throw CSError("unknown operator \(name)")
        }
    }

    /// scene.js's evaluateValueToken.
    func valueToken(_ token: CSToken, _ stream: inout CSTokenStream) throws(CSError) -> CSValue {
        switch token.kind {
        case .openParenthesis:
            return try evaluate(&stream, closing: .closeParenthesis)
        case .openCurly:
            let name = try evaluate(&stream, closing: .closeCurly)
            return try variable(name.text)
        case .function:
            let value = try evaluate(&stream, closing: .closeParenthesis)
            switch token.value {
            case "not": return .bool(!(try truth(value)))
            case "round":
                guard let number = CSValue.parseFloat(value.text) else { throw CSError("round() value is not a number: \(value.text)") }
                return .number((number + 0.5).rounded(.down))
            case "log":
                guard let number = CSValue.parseFloat(value.text) else { throw CSError("log() value is not a number: \(value.text)") }
                return .number(Glibc.log10(number))
            case "length": return .number(Double(value.text.utf16.count))
            case "timestamp": throw CSError("timestamp() is not supported")
            default: throw CSError("Invalid expression, auto() must come after a < or > symbol")
            }
        case .number:
            return .string(token.value)
        case .string:
            return .string(try replaceVariables(Self.unescape(String(token.value.dropFirst().dropLast()))))
        case .variable:
            var name = token.value
            while stream.peek?.kind == .openSquare {
                _ = stream.next()
                name += "_" + (try evaluate(&stream, closing: .closeSquare)).text
            }
            return try variable(name)
        default:
            throw CSError("Invalid expression at char \(token.position), expected NUMBER, STRING, VAR or PARENTHETICAL, was: \(token.kind.rawValue) [\(token.value)]")
        }
    }

    /// A string literal's backslash escapes undone (`\"` is `"`, `\\` is `\`).
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// scene.js's evaluateReference: a variable's (or label's, or scene's) name from the front of `stream`.
    func reference(_ stream: inout CSTokenStream, lowercased: Bool = true) throws(CSError) -> String {
        guard let first = stream.next() else { throw CSError("Invalid expression, expected a name") }
        switch first.kind {
        case .openCurly:
            let name = try evaluate(&stream, closing: .closeCurly).text
            return lowercased ? name.lowercased() : name
        case .number:
            return first.value
        case .variable:
            var name = first.value
            while stream.peek?.kind == .openSquare {
                _ = stream.next()
                name += "_" + (try evaluate(&stream, closing: .closeSquare)).text
            }
            return lowercased ? name.lowercased() : name
        default:
            throw CSError("Invalid expression; expected name, found \(first.kind.rawValue) at char \(first.position)")
        }
    }

    /// scene.js's getVar: a variable's value (temporaries first), or one of ChoiceScript's own.
    func variable(_ name: String) throws(CSError) -> CSValue {
        let key = name.lowercased()
        if !key.isEmpty, let number = Double(key), CSValue.format(number) == key { return .number(number) }
        switch key {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "choice_subscribe_allowed": return .bool(true)
        case "choice_randomtest", "choice_quicktest", "choice_registered", "choice_register_allowed", "choice_is_trial", "choice_prerelease",
             "choice_kindle", "choice_restore_purchases_allowed", "choice_save_allowed", "choice_nightmode", "choice_is_advertising_supported":
            return .bool(false)
        case "choice_release_date": return .string("release day")
        case "choice_linenum": return .number(Double(state.line))
        case "choice_scene": return .string(state.scene)
        case "choice_time_stamp": return .number(0)
        default: break
        }
        if key.hasPrefix("choice_is_") { return .bool(false) }
        if key.hasPrefix("choice_saved_checkpoint") { return .bool(state.stats[key].map { (try? truth($0)) ?? false } ?? false) }
        if state.temps.has(key) {
            guard let value = state.temps.values[key] else { throw CSError("Variable '\(key)' exists but has no value") }
            return value
        }
        if let value = state.stats[key] { return value }
        if key == "implicit_control_flow" { return .bool(false) }
        if key == "choice_title" { throw CSError("This game is missing a *title command") }
        throw CSError("Non-existent variable '\(key)'")
    }

    /// JavaScript's `parseFloat` as ChoiceScript's `num`: an error for what is not a number.
    func number(_ value: CSValue) throws(CSError) -> Double {
        guard let number = CSValue.parseFloat(value.text) else { throw CSError("Not a number: \(value.text)") }
        guard number.isFinite else { throw CSError("Not finite \(value.text)") }
        return number
    }

    /// ChoiceScript's `bool`: true, false, "true" or "false"; an error for anything else.
    func truth(_ value: CSValue) throws(CSError) -> Bool {
        switch value {
        case .bool(let bool): return bool
        case .string("true"): return true
        case .string("false"): return false
        default: throw CSError("Neither true nor false: \(value.text)")
        }
    }
}
