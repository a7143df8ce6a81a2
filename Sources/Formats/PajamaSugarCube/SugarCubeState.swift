/// Everything a SugarCube reading carries from one moment to the next (docs/sugarcube.md, "State"): the
/// passages visited, the story variables, temporaries and random generator (as the engine's JSON), the page
/// shown and its links. A value: the beat maker keeps copies, and it is saved with the reading's progress.
public struct SugarCubeState: Sendable, Equatable, Codable {
    /// The passages visited, oldest first, the current one last.
    public var history: [String] = []
    /// `State.variables`, `State.temporary` and the generator's state, as JSON (`__pj.save()`).
    public var script: String
    /// The page shown now.
    public var shown: [SugarCubeItem] = []
    /// The links the page offers (those whose text is in `shown`).
    public var links: [SugarCubeLink] = []
    public var nextLinkId = 0
    /// Tracks named by `<<cacheaudio>>`: name to sources.
    public var tracks: [String: [String]] = [:]
    /// The source looping in the background now, if any.
    public var loop: String?
    /// The page's input fields (`<<textbox>>`, `<<numberbox>>`, `<<textarea>>`), in the order written.
    public var inputs: [SugarCubeInput] = []
    /// The ids of the inputs answered on this page.
    public var answered: [Int] = []

    /// The first input of the page not answered yet, in page order.
    public var pendingInput: SugarCubeInput? {
        let byId = Dictionary(inputs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return shown.inputIds.lazy.filter { !self.answered.contains($0) }.compactMap { byId[$0] }.first
    }

    public init(seed: Int) {
        script = "{\"v\":{},\"t\":{},\"r\":\(Int32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 12345))}"
    }
}

/// A link on the page.
public struct SugarCubeLink: Sendable, Equatable, Codable {
    public enum Action: Sendable, Equatable, Codable {
        /// To a passage (`[[...]]`, `<<actions>>`, `<<choice>>`): its setter run first.
        case goto(String, setter: String?)
        /// Back to the passage before (`<<back>>`: the history goes back too) or `<<return>>` (forward to it).
        case back(String, pops: Bool)
        /// Runs a body (`<<link>>`, `<<button>>`, `<<linkreplace>>`...): where its output goes, the temporaries
        /// `<<capture>>` kept, and the passage it goes to after.
        case body(source: String, mode: BodyMode, captured: String?, target: String?, setter: String?)
    }

    public enum BodyMode: String, Sendable, Equatable, Codable {
        /// The body's output is dropped (`<<link>>`, `<<button>>`): only what it does counts; the link stays.
        case run
        /// The link's text is replaced by the body's output (`<<linkreplace>>`).
        case replace
        /// The body's output is written after the link's text, which stays as text (`<<linkappend>>`).
        case append
        /// ... or before it (`<<linkprepend>>`).
        case prepend
    }

    public var id: Int
    /// The link's text as the HTML the lines are made of.
    public var label: String
    public var action: Action
}

/// An input field on the page (`<<textbox>>`, `<<numberbox>>`, `<<textarea>>`): Pajama asks it as a question
/// page (docs/sugarcube.md, "Typed answers"), and the answer goes into its variable as SugarCube's field puts it.
public struct SugarCubeInput: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// `<<textbox>>`, `<<textarea>>`: the text as typed.
        case text
        /// `<<numberbox>>`: `Number(text)`.
        case number
    }

    public var id: Int
    /// The receiver as written, with its sigil (`$name`, `_answer`, `$player.name`).
    public var variable: String
    public var kind: Kind
    /// The default value, as the field shows it (the variable holds it until an answer).
    public var defaultValue: String
    /// The passage Enter goes to (`<<textbox "$name" "" "Next">>`), if any.
    public var passage: String?

    public init(id: Int, variable: String, kind: Kind, defaultValue: String, passage: String? = nil) {
        self.id = id
        self.variable = variable
        self.kind = kind
        self.defaultValue = defaultValue
        self.passage = passage
    }
}
