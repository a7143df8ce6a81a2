/// What a ChoiceScript game printed and did between two stops.
public enum CSOutput: Equatable, Sendable {
    /// A paragraph of text, as ChoiceScript joins its lines: `[n/]` is a line break, `[b]`/`[i]` markup.
    case paragraph(String)
    case image(String, alt: String?)
    case sound(String)
    /// `*page_break`, `*finish` with text on the page, or after `*input_text`: a page turn, with its button's words.
    case pageBreak(String)
    /// `*achieve`: an achievement earned (its title and earned description).
    case achievement(title: String, description: String)
    /// `*stat_chart`: its rows, evaluated.
    case statChart([CSStatRow])
    /// A line Pajama adds for the reader: a `*script` not run, a typed answer it cannot take.
    case notice(String)
}

/// One option of a choice as the reader sees it (`*selectable_if` false or a used `*disable_reuse` option:
/// shown but not takeable).
public struct CSOption: Equatable, Sendable {
    public var text: String
    public var selectable: Bool

    public init(text: String, selectable: Bool) {
        self.text = text
        self.selectable = selectable
    }
}

/// Where the game stopped: at a choice, at its end, or at an error (`*bug`, or a line that cannot run:
/// "scene line N: reason").
public enum CSStop: Equatable, Sendable {
    case choice([CSOption])
    /// `*input_text` or `*input_number`: a typed answer asked for (`CSRuntime.answer`).
    case input(CSQuestion)
    case ending
    case error(String)
}

/// A typed answer the game waits for: the variable it goes to, and what it may be (scene.js's input_text and
/// input_number: text, blank or not; a number from `minimum` to `maximum`, whole when both bounds are).
public struct CSQuestion: Codable, Equatable, Sendable {
    public enum Kind: Codable, Equatable, Sendable {
        case text(allowsBlank: Bool)
        case number(minimum: Double, maximum: Double, wholeNumbers: Bool)
    }

    public var variable: String
    public var kind: Kind

    public init(variable: String, kind: Kind) {
        self.variable = variable
        self.kind = kind
    }
}

public struct CSMoment: Equatable, Sendable {
    /// The scene the game stopped in.
    public var scene: String
    public var output: [CSOutput]
    public var stop: CSStop

    public init(scene: String, output: [CSOutput], stop: CSStop) {
        self.scene = scene
        self.output = output
        self.stop = stop
    }
}
