/// A passage's markup, parsed (`HarloweParser`).
indirect enum HarloweNode: Sendable {
    case text(String)
    case newline
    /// `[[label->target]]`, `[[target<-label]]`, `[[label|target]]`, `[[target]]`.
    case link(label: String, target: String)
    case macro(HarloweMacroCall)
    /// A hook with no changer before it (bare or named).
    case hook(HarloweHook)
    /// `$name`, `_name` (with `'s` properties) in prose: printed.
    case variable(HarloweExpr)
    /// A variable before a hook (`$robotText[Good golly!]`): the changer it holds is applied to the hook.
    case attached(HarloweExpr, HarloweHook)
    case toggle(HarloweToggle)
    /// An HTML tag as written (`<br>`, `<img src="...">`).
    case html(String)
    case heading([HarloweNode])
    case rule
    /// An aligner line (`==>`, `=><=`, `<==`): the text after it, to the next one or the hook's end, is
    /// aligned so (`left`, `center`, `right`).
    case aligner(String)
    case bullet
    case verbatim(String)
    /// `{...}`: line breaks and runs of white space inside are one space.
    case collapse([HarloweNode])
    /// `<!-- page -->`: Pajama's page marker (a new page starts at the next line).
    case pageBreak
}

/// The markup that turns a style on and off: `''`, `//`, `**`, `*`, `~~`, `^^`.
enum HarloweToggle: String, Sendable {
    case bold = "b", italic = "i", strong = "strong", em = "em", strike = "strike", sup = "sup"
}

/// `(name: args)`, and the hook attached to it.
struct HarloweMacroCall: Sendable {
    /// Lowercase, without `-` and `_` (Harlowe's names are matched so: `(text-colour:)` is `(textcolour:)`).
    var name: String
    /// As written, for messages.
    var written: String
    var arguments: Result<[HarloweExpr], HarloweSyntaxError>
    var hook: HarloweHook?
    /// The changers added to this one with `+` before the hook (`(align: "<==")+(box: "=XX=")[...]`), in order:
    /// the hook is shown with their sum.
    var joined: [HarloweMacroCall] = []

    static func normalise(_ name: String) -> String { name.lowercased().filter { $0 != "-" && $0 != "_" } }
}

struct HarloweSyntaxError: Error, Sendable, Equatable {
    var message: String
}

/// `[...]`, `|name>[...]`, `[...]<name|`; hidden with `)` in place of `>`/`<`.
struct HarloweHook: Sendable {
    var name: String?
    var hidden: Bool
    var body: [HarloweNode]
    /// The body's source, for a hook shown later (a link's, a hidden one).
    var source: String
}

/// An expression in a macro's arguments.
indirect enum HarloweExpr: Sendable {
    case literal(HarloweValue)
    case variable(String)
    case temp(String)
    case hookName(String)
    case it
    case word(String)
    case macro(HarloweMacroCall)
    case binary(String, HarloweExpr, HarloweExpr)
    case not(HarloweExpr)
    case negate(HarloweExpr)
    case spread(HarloweExpr)
    /// `base's property`, `property of base`.
    case property(HarloweExpr, HarloweProperty)
    /// `x to y` (`(set:)`), `y into x` (`(put:)`, `(move:)`): the target and the value.
    case assignment(target: HarloweExpr, value: HarloweExpr, into: Bool)
    case lambda(String)

    var isComparison: Bool {
        if case .binary(let op, _, _) = self { return HarloweExpr.comparisons.contains(op) }
        return false
    }

    static let comparisons: Set<String> = ["is", "is not", "<", ">", "<=", ">=", "contains", "does not contain", "is in", "is not in"]
}

/// What follows `'s`.
indirect enum HarloweProperty: Sendable {
    case name(String)
    case computed(HarloweExpr)
}
