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
    case ending
    case error(String)
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
