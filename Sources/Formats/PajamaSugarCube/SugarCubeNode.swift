/// A passage's markup, parsed (`SugarCubeParser`).
indirect enum SugarCubeNode: Equatable {
    /// Text as written (HTML entities kept for the page's markup reader).
    case text(String)
    /// An HTML tag, whole (`<span id="x">`, `</b>`).
    case tag(String)
    case lineBreak
    /// A naked variable: `$name`, `_name`, with `.property` and `[index]` after it.
    case variable(String)
    /// A template: `?name` (its name), `Template.add`'s string or function's value, wikified.
    case template(String)
    case link(SugarCubeLinkMarkup.Link)
    case image(SugarCubeLinkMarkup.Image)
    case macro(SugarCubeMacro)
    /// Text shown as it is (`"""..."""`, `<nowiki>`, `{{{...}}}`): no markup inside.
    case verbatim(String)
}

/// A macro call: its name, and its clauses (the first is the call itself; a container's further ones are
/// `<<elseif>>`, `<<else>>`, `<<case>>`, `<<default>>`, `<<option>>`, `<<next>>` ...).
struct SugarCubeMacro: Equatable {
    struct Clause: Equatable {
        var name: String
        var arguments: String
        var body: [SugarCubeNode]
        /// The body's source, as written (what a link's body runs again when it is taken).
        var source: String
    }

    var name: String
    var clauses: [Clause]
    var isContainer: Bool
    /// The passage line the call starts on (1-based).
    var line: Int

    var arguments: String { clauses[0].arguments }
    var body: [SugarCubeNode] { clauses[0].body }
    var source: String { clauses[0].source }
}
