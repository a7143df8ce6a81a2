import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaTwine

/// Plays a SugarCube 2 story (docs/sugarcube.md): each moment is what one passage writes (or what a taken
/// `<<linkreplace>>`-like link changes on the page), and the links it offers. At creation the engine gets the
/// SugarCube API and runs the Story JavaScript (passages tagged `script`) once; `start()` runs `widget`
/// passages and StoryInit, then the start passage; `choose(_:)` takes a link of the current moment. The state
/// (`state`) is a value the caller may keep and set back (a beat made again from an earlier moment).
///
/// Not thread-safe: owned by one caller.
public final class SugarCubeRuntime {
    public let story: TwineStory
    public var state: SugarCubeState
    private var seed: Int
    let engine = JSEngine()
    private var parsed: [String: [SugarCubeNode]] = [:]
    /// Widgets by name: their bodies' sources (`<<widget>>` in passages tagged `widget`).
    var widgets: [String: String] = [:]
    private var widgetsDefined = false
    /// Custom macros that take bodies (widgets declared `container`, `Macro.add` with `tags`).
    private(set) var containerMacros: Set<String> = []
    /// The child tags of the story's own container macros, by macro (`tags: ["onchange"]`).
    private(set) var customClauses: [String: Set<String>] = [:]
    /// The macros the Story JavaScript defines (`Macro.add`).
    public private(set) var customMacros: Set<String> = []
    /// Errors of the Story JavaScript, by passage: `validate` names them.
    public private(set) var scriptErrors: [(passage: String, message: String)] = []
    /// The Story JavaScript ran too long (the start says so).
    private var startupStopped: String?
    /// `State.variables` as the Story JavaScript left them (JSON), nil when it set none.
    private var initialVariables: String?
    /// The start passage: StoryData's, or `Config.passages.start` set by the Story JavaScript.
    public private(set) var startPassage: String

    /// The longest chain of `<<goto>>` (or `Engine.play`) in one moment; a story that goes on for ever stops there.
    static let maximumGotos = 100
    /// The most nodes one moment may render (against loops through `<<include>>`).
    static let maximumSteps = 200_000
    /// The deepest `<<include>>`, widget or printed markup inside another.
    static let maximumDepth = 100

    public init(story: TwineStory, seed: Int) {
        self.story = Self.lastOfEachName(story)
        self.seed = seed
        state = SugarCubeState(seed: seed)
        startPassage = story.start
        do {
            try engine.evaluate(SugarCubePrelude.source, source: "the SugarCube API")
            try engine.evaluate(SugarCubePrelude.evalJavaScript, source: "the SugarCube API")
            var passages: [String] = []
            for passage in story.passages {
                passages.append(SugarCubeScript.quoted(passage.name) + ":{tags:[" + passage.tags.map(SugarCubeScript.quoted).joined(separator: ",")
                    + "],text:" + SugarCubeScript.quoted(passage.text) + "}")
            }
            try engine.evaluate("__pj.passages = {" + passages.joined(separator: ",\n") + "}; __pj.title = " + SugarCubeScript.quoted(story.title)
                + "; __pj.ifid = " + SugarCubeScript.quoted(story.ifid ?? "") + "; __pj.load(" + SugarCubeScript.quoted(state.script) + ");",
                source: "the story's passages")
        } catch {
            startupStopped = "the SugarCube API could not be set up: \(error.message)"
            return
        }
        for passage in story.passages where passage.tags.contains("script") {
            do {
                // As engine.js runs it: `Scripting.evalJavaScript`, so its `let`, `var` and functions are its own.
                try engine.evaluate("__pj.evalJS(" + SugarCubeScript.quoted(passage.text) + ")", source: passage.name)
            } catch {
                scriptErrors.append((passage.name, error.message))
                if error.timedOut {
                    startupStopped = "the Story JavaScript (passage \"\(passage.name)\") ran longer than \(Int(JSEngine.timeLimit)) s and was stopped"
                    return
                }
            }
        }
        // What the Story JavaScript set in `State.variables` is the first moment's (SugarCube's history starts
        // from the active moment's variables).
        if let variables = try? engine.evaluate("JSON.stringify(__pj.vars)"), variables != "{}" { initialVariables = variables }
        if let names = try? engine.evaluate("Object.keys(__pj.macros).concat(Object.keys(macros).filter(__pj.legacyMacro)).join('\\n')") {
            customMacros = Set(names.split(separator: "\n").map(String.init))
        }
        if let names = try? engine.evaluate("Object.keys(__pj.macros).filter(function (n) { return !!__pj.macros[n].tags; }).join('\\n')") {
            containerMacros = Set(names.split(separator: "\n").map(String.init))
        }
        // A story's macro's child tags (`Macro.add("numberpool", { tags: ["onchange"] ... })`), each on a line
        // after its macro's name, split by spaces.
        if let lines = try? engine.evaluate("Object.keys(__pj.macros).filter(function (n) { return Array.isArray(__pj.macros[n].tags) && __pj.macros[n].tags.length; }).map(function (n) { return n + ' ' + __pj.macros[n].tags.join(' '); }).join('\\n')") {
            for line in lines.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                if let name = words.first { customClauses[name] = Set(words.dropFirst()) }
            }
        }
        if let start = try? engine.evaluate("typeof Config.passages.start === 'string' ? Config.passages.start : ''"), !start.isEmpty,
           story.passage(named: start) != nil {
            startPassage = start
        }
    }

    /// The nodes of a passage's (or a body's) source, parsed once.
    func nodes(_ source: String) -> [SugarCubeNode] {
        if let known = parsed[source] { return known }
        let nodes = SugarCubeParser.parse(source, extraContainers: containerMacros, extraClauses: customClauses)
        if parsed.count > 4096 { parsed.removeAll() }
        parsed[source] = nodes
        return nodes
    }

    func addContainer(_ name: String) {
        guard !containerMacros.contains(name) else { return }
        containerMacros.insert(name)
        parsed.removeAll()
    }

    /// Another seed for the readings that start after this (a resumed reading's saved seed).
    public func reseed(_ seed: Int) { self.seed = seed }

    /// The passage `name`, or the one so named but for spaces around it.
    /// The story with one passage of each name, the last: SugarCube reads the story data in order, each
    /// passage replacing one of its name before it (`Story`'s `_passages[name] = passage`).
    static func lastOfEachName(_ story: TwineStory) -> TwineStory {
        var last: [String: Int] = [:]
        for (index, passage) in story.passages.enumerated() { last[passage.name] = index }
        guard last.count < story.passages.count else { return story }
        let passages = story.passages.enumerated().filter { last[$0.element.name] == $0.offset }.map(\.element)
        return TwineStory(title: story.title, ifid: story.ifid, format: story.format, formatVersion: story.formatVersion, start: story.start,
                          passages: passages)
    }

    func passage(named name: String) -> TwinePassage? {
        story.passage(named: name) ?? story.passage(named: name.trimmingSpaces)
    }

    /// The passages a reader may enter (`pajama test`'s coverage): not the special ones SugarCube runs itself
    /// or shows around the page (StoryInit, StoryCaption, PassageHeader..., `specialPassages`), nor those
    /// tagged `script`, `stylesheet`, `widget`, `init` or `Twine.*` (code, styles, widgets, pictures).
    public var readablePassages: [String] {
        story.passages.filter { passage in
            !Self.specialPassages.contains(passage.name)
                && !passage.tags.contains { Self.specialTags.contains($0) || $0.hasPrefix("Twine.") }
        }.map(\.name)
    }

    /// The passages SugarCube 2 reads by name for itself, never as a page a link goes to.
    public static let specialPassages: Set<String> = [
        "StoryTitle", "StoryData", "StoryInit", "StoryCaption", "StoryMenu", "StoryBanner", "StorySubtitle", "StoryAuthor",
        "StoryDisplayTitle", "StoryInterface", "StoryShare", "PassageReady", "PassageDone", "PassageHeader", "PassageFooter",
    ]
    static let specialTags: Set<String> = ["script", "stylesheet", "widget", "init"]

    /// A fresh reading from the start passage.
    public func start() -> SugarCubeMoment {
        state = SugarCubeState(seed: seed)
        if let startupStopped { return SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: startupStopped) }
        let evaluator = SugarCubeEvaluator(runtime: self, state: state)
        evaluator.load()
        if let initialVariables { evaluator.run("__pj.vars = JSON.parse(" + SugarCubeScript.quoted(initialVariables) + "); 0", "the Story JavaScript's variables") }
        if !widgetsDefined {
            widgetsDefined = true
            for passage in story.passages where passage.tags.contains("widget") { evaluator.runSilently(passage) }
        }
        if let initial = story.passage(named: "StoryInit") { evaluator.runSilently(initial) }
        let moment = evaluator.enter(startPassage)
        state = evaluator.finish()
        return moment
    }

    /// The passages SugarCube draws in its UI bar beside the page, in its order, that the story has.
    public var captionPassages: [String] { ["StoryBanner", "StoryCaption"].filter { passage(named: $0) != nil } }

    /// StoryBanner and StoryCaption as they read in the current moment (SugarCube renders them in its UI bar
    /// after each passage, with the variables as the passage left them): their lines, empty when the story
    /// has neither. The reading's state does not change (a `<<set>>` in the caption is not kept).
    public func caption() -> [SugarCubeLine] {
        let passages = captionPassages.compactMap { passage(named: $0) }
        guard !passages.isEmpty, startupStopped == nil else { return [] }
        let evaluator = SugarCubeEvaluator(runtime: self, state: state)
        evaluator.load()
        let lines = passages.flatMap { SugarCubeFlattener.lines(evaluator.written($0)) }
        return lines.filter { !$0.text.trimmingWhitespace.isEmpty || $0.image != nil }
    }

    /// The links the current moment offers, in page order.
    public var offeredLinks: [SugarCubeLink] { Self.offered(state) }

    /// The links the page offers: none while one of its input fields waits for an answer.
    static func offered(_ state: SugarCubeState) -> [SugarCubeLink] {
        guard state.pendingInput == nil else { return [] }
        let byId = Dictionary(state.links.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return state.shown.linkIds.compactMap { byId[$0] }
    }

    /// Takes link `index` of the current moment.
    public func choose(_ index: Int) throws(SugarCubeChoiceError) -> SugarCubeMoment {
        let links = offeredLinks
        guard links.indices.contains(index) else { throw SugarCubeChoiceError(index: index, count: links.count) }
        let evaluator = SugarCubeEvaluator(runtime: self, state: state)
        evaluator.load()
        let moment = evaluator.take(links[index])
        // `Engine.restart()` reloads SugarCube's page: the reading begins again, StoryInit and all.
        if evaluator.run("__pj.restartAsked ? 'yes' : ''", "Engine.restart") == "yes" { return start() }
        state = evaluator.finish()
        return moment
    }

    /// Answers the input field the current moment waits at (`SugarCubeMoment.question`): its variable gets
    /// the answer as SugarCube's field sets it (the text, or `Number(text)` for a `<<numberbox>>`); the
    /// moment is the page's text after the field, to the next field or the page's links. A field that names
    /// a passage goes there when the rest of the page offers no link (SugarCube's Enter).
    public func answer(_ text: String) throws(SugarCubeAnswerError) -> SugarCubeMoment {
        guard let input = state.pendingInput else { throw .noQuestion }
        if input.kind == .number {
            let trimmed = text.trimmingWhitespace
            guard !trimmed.isEmpty, Double(trimmed) != nil else { throw .refused("Please type a number.") }
        }
        let evaluator = SugarCubeEvaluator(runtime: self, state: state)
        evaluator.load()
        let moment = evaluator.answer(input, text)
        state = evaluator.finish()
        return moment
    }
}

/// An answer the moment cannot take.
public enum SugarCubeAnswerError: Error, Equatable, Sendable {
    /// The moment waits at no input field.
    case noQuestion
    /// Not an answer the field takes (why).
    case refused(String)
}

/// A link that the moment does not offer.
public struct SugarCubeChoiceError: Error, Equatable, Sendable {
    public var index: Int
    public var count: Int
}

/// What one moment writes and offers.
public struct SugarCubeMoment: Sendable, Equatable {
    /// The passage being read.
    public var passage: String
    public var lines: [SugarCubeLine]
    public var links: [SugarCubeLink]
    /// The macros met that Pajama does not play (each once, as written: `<<cycle>>`), for `validate`.
    public var unsupported: [String]
    /// Errors met on the way (a `<<set>>` whose expression threw...), shown in place; for `validate`.
    public var errors: [String]
    /// Why the moment stopped, when it did (a script that ran too long, a `<<goto>>` loop, a missing passage).
    public var error: String?
    /// The passages the moment entered (put in the history: a link's, then each `<<goto>>`'s), in order; not
    /// those only included (`<<include>>`, PassageHeader...).
    public var entered: [String]
    /// The input field the page's text stops at (`lines` lead to it), when one waits for its answer
    /// (`SugarCubeRuntime.answer(_:)`); the page's links are offered once every field is answered.
    public var question: SugarCubeInput?
    /// The passage's `[[links]]` as the moment weighed them, shown or kept back by an `<<if>>` (for `pajama
    /// test`'s choices never offered).
    public var weighed: [TwineWeighedLink]

    public var isEnding: Bool { links.isEmpty && question == nil }

    public init(passage: String, lines: [SugarCubeLine], links: [SugarCubeLink], unsupported: [String], errors: [String], error: String?,
                entered: [String] = [], question: SugarCubeInput? = nil, weighed: [TwineWeighedLink] = []) {
        self.passage = passage
        self.lines = lines
        self.links = links
        self.unsupported = unsupported
        self.errors = errors
        self.error = error
        self.entered = entered
        self.question = question
        self.weighed = weighed
    }
}
