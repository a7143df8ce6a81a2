/// Plays a Harlowe 3 story (docs/twine.md, "Harlowe"): each moment is what one passage (or one revealed
/// hook) writes, and the links it offers. `start()` runs the `startup` passages and the start passage;
/// `choose(_:)` takes a link of the current moment. The state (`state`) is a value the caller may keep and
/// set back (a beat made again from an earlier moment).
///
/// Not thread-safe: owned by one caller.
public final class HarloweRuntime {
    public let story: TwineStory
    public var state: HarloweState
    private var seed: Int
    private var parsed: [String: [HarloweNode]] = [:]

    /// The longest chain of `(goto:)` in one moment; a story that goes on for ever stops there.
    static let maximumGotos = 100
    /// The most nodes one moment may render (against loops through `(display:)`).
    static let maximumSteps = 200_000

    public init(story: TwineStory, seed: Int) {
        self.story = story
        self.seed = seed
        state = HarloweState(seed: seed)
    }

    /// The nodes of a passage's (or a hook's) source, parsed once.
    func nodes(_ source: String) -> [HarloweNode] {
        if let known = parsed[source] { return known }
        let nodes = HarloweParser.parse(source)
        if parsed.count > 4096 { parsed.removeAll() }
        parsed[source] = nodes
        return nodes
    }

    /// The tracks the story's `hal.tracks` passage names (HAL), read once.
    lazy var halTracks: [String: String] = story.passage(named: HarloweAudio.tracksPassage).map { HarloweAudio.tracks(in: $0.text) } ?? [:]

    private var taggedPassages: [String: [TwinePassage]] = [:]

    /// The passages tagged `tag`, in story order (found once: every moment asks for its headers and footers).
    func tagged(_ tag: String) -> [TwinePassage] {
        if let known = taggedPassages[tag] { return known }
        let found = story.passages.filter { $0.tags.contains(tag) }
        taggedPassages[tag] = found
        return found
    }

    /// Another seed for the readings that start after this (a resumed reading's saved seed).
    public func reseed(_ seed: Int) { self.seed = seed }

    /// A fresh reading from the start passage.
    public func start() -> HarloweMoment {
        state = HarloweState(seed: seed)
        let evaluator = HarloweEvaluator(runtime: self, state: state)
        let moment = evaluator.enter(story.start, startup: true)
        state = evaluator.state
        return moment
    }

    /// Takes link `index` of the current moment.
    public func choose(_ index: Int) throws(HarloweChoiceError) -> HarloweMoment {
        guard state.links.indices.contains(index) else { throw HarloweChoiceError(index: index, count: state.links.count) }
        let link = state.links[index]
        let evaluator = HarloweEvaluator(runtime: self, state: state)
        let moment: HarloweMoment
        switch link.action {
        case .goto(let target):
            moment = evaluator.enter(target, startup: false)
        case .reveal(let source, let temps, let repeats, let keepsText):
            var rest = state.links
            if !repeats { rest.remove(at: index) }
            moment = evaluator.reveal(source, temps: temps, label: keepsText ? link.label : nil, link: link.label, repeats: repeats,
                                      keeping: rest, at: repeats ? index + 1 : index)
        }
        state = evaluator.state
        return moment
    }
}

/// A link that the moment does not offer.
public struct HarloweChoiceError: Error, Equatable, Sendable {
    public var index: Int
    public var count: Int
}

/// What one moment writes and offers.
public struct HarloweMoment: Sendable, Equatable {
    /// The passage being read.
    public var passage: String
    public var lines: [HarloweLine]
    public var links: [HarloweLink]
    /// The macros met that Pajama does not play (each once, as written: `live`), for `validate`.
    public var unsupported: [String]
    /// Why the moment stopped, when it did (a `(goto:)` loop, a missing passage...).
    public var error: String?
    /// The passages' `[[links]]` as the moment weighed them, shown or kept back by a condition
    /// (for `pajama test`'s choices never offered).
    public var weighed: [TwineWeighedLink]

    public var isEnding: Bool { links.isEmpty }

    public init(passage: String, lines: [HarloweLine], links: [HarloweLink], unsupported: [String], error: String?, weighed: [TwineWeighedLink] = []) {
        self.passage = passage
        self.lines = lines
        self.links = links
        self.unsupported = unsupported
        self.error = error
        self.weighed = weighed
    }
}
