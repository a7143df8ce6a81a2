import FoundationEssentials
import Glibc
import PajamaBasics

/// A Harlowe value: numbers, strings, booleans, arrays, datamaps, datasets, colours, and the changers and
/// hook names macros give (docs/twine.md, "Harlowe").
public indirect enum HarloweValue: Sendable, Equatable, Codable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([HarloweValue])
    /// Names (strings; a number name is kept as its text) and values.
    case datamap([String: HarloweValue])
    /// Unique values, in the order they were added.
    case dataset([HarloweValue])
    case colour(String)
    case changer(HarloweChanger)
    /// `?name`.
    case hookName(String)
    /// What a command macro gives (`(goto:)`, `(print:)`...), run where it is written.
    case command(HarloweCommand)
    /// A `_x where ...` lambda, its source (read by `HarloweLambda` where a macro uses it).
    case lambda(String)
    /// A variable never set (Harlowe 3 says 0).
    case none

    public var typeName: String {
        switch self {
        case .number: "a number"
        case .string: "a string"
        case .bool: "a boolean"
        case .array: "an array"
        case .datamap: "a datamap"
        case .dataset: "a dataset"
        case .colour: "a colour"
        case .changer: "a changer"
        case .hookName: "a hook name"
        case .command: "a command"
        case .lambda: "a lambda"
        case .none: "nothing"
        }
    }

    /// The text `(print:)` writes.
    public var printed: String {
        switch self {
        case .number(let value): Self.format(value)
        case .string(let text): text
        case .bool(let value): value ? "true" : "false"
        case .array(let items): items.map(\.printed).joined(separator: ",")
        case .dataset(let items): items.map(\.printed).joined(separator: ",")
        case .datamap(let entries): entries.keys.sorted().map { "\($0): \(entries[$0]!.printed)" }.joined(separator: ", ")
        case .colour(let name): name
        case .changer, .command, .lambda: ""
        case .hookName(let name): "?" + name
        case .none: "0"
        }
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Harlowe's `is`: arrays and datamaps by their contents; 0 (an unset variable) is 0.
    func isEqual(_ other: HarloweValue) -> Bool {
        switch (self.resolved, other.resolved) {
        case (.dataset(let a), .dataset(let b)): Set(a.map(\.key)) == Set(b.map(\.key))
        case (let a, let b): a == b
        }
    }

    /// An unset variable is the number 0.
    var resolved: HarloweValue { if case .none = self { .number(0) } else { self } }

    /// A key that tells values apart (datasets).
    var key: String { "\(typeName):\(printed)" }
}

/// What a changer does to the hook it is attached to (several combine with `+`).
public struct HarloweChanger: Sendable, Equatable, Codable {
    public enum Effect: Sendable, Equatable, Codable {
        /// `(if:)`, `(unless:)`, `(else-if:)`, `(else:)`: shown or not (and whether an `(else:)` after it runs).
        case condition(Bool)
        /// `(link:)` (`repeats` for `(link-repeat:)`), `(link-reveal:)` (`keepsText`).
        /// `(link-reveal-goto:)` goes to `goto` after showing the hook.
        case link(text: String, keepsText: Bool, repeats: Bool, goto: String?)
        /// `(click: ?hook)` or `(click: "text")`.
        case click(target: String)
        case replace([String]), append([String]), prepend([String])
        case style(String)
        case colour(String)
        case align(String)
        case hidden
        /// A changer Pajama does not play: a notice in place, the hook not shown.
        case unsupported(String)
        /// `(for: each _item, ...values)`: the hook once for each value, `_item` holding it.
        case repeating(variable: String, items: [HarloweValue])
    }

    public var effects: [Effect]

    public init(_ effects: [Effect]) { self.effects = effects }
}

/// What a command macro does where it is written.
public enum HarloweCommand: Sendable, Equatable, Codable {
    case goto(String)
    case linkGoto(text: String, target: String)
    /// A link that shows `source` (`(link-show:)`).
    case reveal(text: String, source: String)
    case print(HarloweValue)
    case display(String)
    case show([String]), hide([String])
    case unsupported(String)
    /// `(stop:)`, `(undo:)` with nothing to undo...: nothing happens.
    case nothing
}
