import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaJSON
import PajamaTwine

/// Renders one moment of a SugarCube story: walks a passage's nodes, evaluates its expressions in the
/// runtime's engine and writes the page (`SugarCubeWriter`); the macros are in SugarCubeEvaluator+Macros.
final class SugarCubeEvaluator {
    let runtime: SugarCubeRuntime
    var state: SugarCubeState
    var engine: JSEngine { runtime.engine }
    var writer = SugarCubeWriter()
    /// The page a link's body changes (`<<replace>>` in a `<<link>>`); empty while a passage renders.
    var page: [SugarCubeItem] = []
    var passage = ""
    var unsupported: [String] = []
    var errors: [String] = []
    /// The passages entered (put in the history) in this moment, in order: `pajama test`'s coverage.
    var entered: [String] = []
    /// The `[[links]]` of the passage shown, shown or kept back by an `<<if>>` (`pajama test`'s choices never offered).
    var weighed: [TwineWeighedLink] = []
    /// The passage whose text is rendering (an included one inside its includer): where a link is written.
    var writtenIn = ""
    /// Why the moment stopped (a script ran too long, a loop of `<<goto>>`...).
    var stopped: String?
    var gotoTarget: String?
    enum LoopControl { case breaks, continues }
    var loopControl: LoopControl?
    var nobr = 0
    var depth = 0
    private var steps = 0
    /// The temporaries `<<capture>>` keeps for the links made inside it (JSON), innermost last.
    var captures: [String] = []

    init(runtime: SugarCubeRuntime, state: SugarCubeState) {
        self.runtime = runtime
        self.state = state
    }

    /// Puts the state's variables and history into the engine.
    func load() {
        let history = "[" + state.history.map(SugarCubeScript.quoted).joined(separator: ",") + "]"
        // The tracks `<<cacheaudio>>` named (kept in the state) are SimpleAudio's tracks too.
        let tracks = state.tracks.sorted { $0.key < $1.key }.map { SugarCubeScript.quoted($0.key) + ": [" + $0.value.map(SugarCubeScript.quoted).joined(separator: ",") + "]" }
        run("__pj.load(" + SugarCubeScript.quoted(state.script) + "); __pj.history = " + history + "; __pj.gotoTarget = null; __pj.restartAsked = false; __pj.goBack = 0; (function (t) { for (var k in t) if (!(k in __pj.tracks)) __pj.tracks[k] = t[k]; })({"
            + tracks.joined(separator: ",") + "});", "loading the state")
    }

    /// The state at the end of the moment, the engine's variables in it.
    func finish() -> SugarCubeState {
        if let script = run("__pj.save()", "saving the state") { state.script = script }
        return state
    }

    // MARK: Evaluating

    /// Runs `code` in the engine; on an error writes a notice naming `what` (nil back), and stops the moment
    /// when it ran too long.
    /// `wording`: what the notice names instead of `what`, as SugarCube words it (`<<set>>: bad evaluation`).
    @discardableResult
    func run(_ code: String, _ what: String, notice: Bool = true, wording: String? = nil) -> String? {
        guard stopped == nil else { return nil }
        do {
            return try engine.evaluate(code, source: passage.isEmpty ? "story" : passage)
        } catch {
            if error.timedOut {
                stopped = "\(what) ran longer than \(Int(JSEngine.timeLimit)) s and was stopped"
            } else {
                fail(what, error.message, notice: notice, wording: wording)
            }
            return nil
        }
    }

    /// An error in place (as SugarCube shows it) and for `validate`.
    func fail(_ what: String, _ message: String, notice: Bool = true, wording: String? = nil) {
        // Worded as SugarCube words it (`Error: <<set>>: bad evaluation: ...`): the exception's message without
        // its name, as `getErrorMessage` gives it (the engines' messages themselves differ: V8's and JSC's).
        if notice { writer.append(.notice("Error: \(wording ?? what): \(Self.withoutErrorName(message))")) }
        let place = passage.isEmpty ? "" : "passage \"\(passage)\": "
        let line = "\(place)\(what): \(message)"
        if !errors.contains(line) { errors.append(line) }
    }

    /// `TypeError: x` is `x`, as SugarCube's `getErrorMessage` shows an exception.
    static func withoutErrorName(_ message: String) -> String {
        let name = message.prefix { $0.isLetter }
        guard name.hasSuffix("Error"), message.dropFirst(name.count).hasPrefix(": ") else { return message }
        return String(message.dropFirst(name.count + 2))
    }

    /// The value of a TwineScript expression, as `print` writes it; nil on an error. Evaluated as SugarCube's
    /// `Scripting.evalJavaScript` does, by `eval` (its value is the code's last statement's: `$x is 1;` is one).
    func printed(_ expression: String, _ what: String, wording: String? = nil) -> String? {
        run("__pj.print((0, eval)(" + SugarCubeScript.quoted(SugarCubeScript.desugar(expression)) + "))", what, wording: wording)
    }

    /// Whether a TwineScript condition holds (false on an error), evaluated as `printed` is.
    func holds(_ expression: String, _ what: String, wording: String? = nil) -> Bool {
        run("!!(0, eval)(" + SugarCubeScript.quoted(SugarCubeScript.desugar(expression)) + ")", what, wording: wording) == "true"
    }

    /// A macro's arguments, evaluated (`SugarCubeScript.argumentList`).
    func arguments(_ raw: String, _ what: String) -> [JSON]? {
        guard let json = run("__pj.json(" + SugarCubeScript.argumentList(raw) + ")", what) else { return nil }
        return (try? JSONParser.parse(json))?.arrayValue
    }

    static func text(_ value: JSON) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .string(let s): s
        case .array(let items): items.map(text).joined(separator: ",")
        case .object: value["isLink"] != nil ? (value["text"]?.stringValue ?? "") : "[object Object]"
        }
    }

    /// Link text as SugarCube evaluates it (`Wikifier.helpers.evalText`): TwineScript when it evaluates to a
    /// value, else as written.
    func evalText(_ raw: String) -> String {
        guard raw.contains(where: { $0 == "$" || $0 == "_" || $0 == "\"" || $0 == "'" || $0 == "(" || $0 == "+" || $0 == "`" }) else { return raw }
        return run("__pj.evalText(" + SugarCubeScript.quoted(SugarCubeScript.desugar(raw)) + ", " + SugarCubeScript.quoted(raw) + ")", "link text", notice: false) ?? raw
    }

    func evalPassage(_ raw: String) -> String {
        if runtime.passage(named: raw) != nil { return raw }
        return run("__pj.evalPassageId(" + SugarCubeScript.quoted(SugarCubeScript.desugar(raw)) + ", " + SugarCubeScript.quoted(raw) + ")", "link target", notice: false) ?? raw
    }

    // MARK: Passages

    /// Renders a passage for what it does (StoryInit, PassageReady, widgets): its output dropped.
    func runSilently(_ passage: TwinePassage) {
        let saved = (writer, self.passage)
        writer = SugarCubeWriter()
        self.passage = passage.name
        render(runtime.nodes(passage.text))
        (writer, self.passage) = saved
    }

    /// What `passage` writes, rendered on a writer of its own (the page is left as it is): StoryCaption's.
    func written(_ passage: TwinePassage) -> [SugarCubeItem] {
        let saved = (writer, self.passage)
        writer = SugarCubeWriter()
        self.passage = passage.name
        render(runtime.nodes(passage.text))
        let items = writer.items
        (writer, self.passage) = saved
        return items
    }

    /// Goes to passage `name` (and on, through `<<goto>>` and `Engine.play`); `back` > 0 goes that many moments
    /// back in the history instead of forward (`<<back>>`, `Engine.go(-n)`): the moment gone back to and those
    /// after it leave the history, and its variables are the active ones again.
    func enter(_ name: String, back: Int = 0) -> SugarCubeMoment {
        var target = name
        var gotos = 0
        var popping = back
        while stopped == nil {
            guard let found = runtime.passage(named: target) else {
                stopped = "there is no passage named \"\(target)\""
                break
            }
            let goingBack = popping > 0 && state.history.count > popping ? popping : 0
            if goingBack > 0 { state.history.removeLast(goingBack + 1) }
            popping = 0
            state.history.append(found.name)
            entered.append(found.name)
            run("__pj.enterMoment(\(goingBack)); __pj.history.length = 0; __pj.history.push.apply(__pj.history, " + "["
                + state.history.map(SugarCubeScript.quoted).joined(separator: ",") + "]); __pj.temps = {}; TempState = {}; __pj.gotoTarget = null;", "entering the passage")
            passage = found.name
            writer = SugarCubeWriter()
            page = []
            weighed = []
            state.links = []
            state.nextLinkId = 0
            state.inputs = []
            state.answered = []
            gotoTarget = nil
            fire(":passageinit")
            fire(":passagestart")
            if let ready = runtime.story.passage(named: "PassageReady") { runSilently(ready) }
            passage = found.name
            for part in ["PassageHeader", found.name, "PassageFooter"] {
                guard let source = part == found.name ? found : runtime.story.passage(named: part) else { continue }
                let nobrTag = source.tags.contains("nobr") || found.tags.contains("nobr")
                if nobrTag { nobr += 1 }
                writtenIn = source.name
                render(runtime.nodes(source.text))
                if nobrTag { nobr -= 1 }
                loopControl = nil
                if part != "PassageFooter" { writer.text("\n") }
            }
            fire(":passagerender")
            fire(":passagedisplay")
            if let done = runtime.story.passage(named: "PassageDone") { runSilently(done) }
            passage = found.name
            fire(":passageend")
            let played = run("__pj.gotoTarget === null ? '' : String(__pj.gotoTarget)", "Engine.play") ?? ""
            guard let next = gotoTarget ?? (played.isEmpty ? nil : played) else { break }
            gotos += 1
            if gotos > SugarCubeRuntime.maximumGotos {
                stopped = "more than \(SugarCubeRuntime.maximumGotos) <<goto>> in a row (the last to \"\(next)\")"
                break
            }
            target = next
        }
        state.shown = writer.items
        return moment()
    }

    /// Fires a SugarCube event (`$(document).on(":passagestart", ...)` in the Story JavaScript).
    private func fire(_ event: String) {
        if let failed = run("__pj.fire(" + SugarCubeScript.quoted(event) + ", " + SugarCubeScript.quoted(passage) + ")", "the \(event) handler"), !failed.isEmpty {
            fail("the \(event) handler", failed, notice: false)
        }
    }

    /// Takes a link of the page.
    func take(_ link: SugarCubeLink) -> SugarCubeMoment {
        passage = state.history.last ?? ""
        switch link.action {
        case .goto(let target, let setter):
            // SugarCube's link runs its setter, then `Engine.play`: a setter that throws stops the click there,
            // and the page stays as it is (createInternalLink; the error is not shown on the page).
            if let setter, run(SugarCubeScript.desugar(setter), "the link's setter", notice: false) == nil {
                if stopped == nil { return moment() }
            }
            return enter(target)
        case .back(let target, let pops):
            return enter(target, back: pops ? 1 : 0)
        case .body(let source, let mode, let captured, let target, let setter):
            if let captured { run("Object.assign(__pj.temps, JSON.parse(" + SugarCubeScript.quoted(captured) + "))", "<<capture>>") }
            if let setter { run(SugarCubeScript.desugar(setter), "the link's setter") }
            page = state.shown
            writer = SugarCubeWriter()
            gotoTarget = nil
            render(runtime.nodes(source))
            let played = run("__pj.gotoTarget === null ? '' : String(__pj.gotoTarget)", "Engine.play") ?? ""
            if stopped == nil, let next = gotoTarget ?? (played.isEmpty ? nil : played) ?? target {
                return enter(next)
            }
            // `Engine.go(-n)` / `Engine.backward()`: the passage `n` moments back.
            let back = Int(run("String(__pj.goBack | 0)", "Engine.go") ?? "") ?? 0
            if stopped == nil, back > 0, state.history.count > back {
                return enter(state.history[state.history.count - 1 - back], back: back)
            }
            let output = writer.items
            switch mode {
            case .run: break
            case .replace: _ = page.replace(link: link.id, with: output)
            case .append: _ = page.replace(link: link.id, with: [.text(link.label)] + output)
            case .prepend: _ = page.replace(link: link.id, with: output + [.text(link.label)])
            }
            state.shown = page
            let kept = Set(page.linkIds)
            state.links.removeAll { !kept.contains($0.id) }
            return moment()
        }
    }

    /// The moment the page makes: its lines up to the first input field not answered (from the field `after`,
    /// when one was just answered, else from the top), and its links once every field is answered.
    func moment(after answered: Int? = nil) -> SugarCubeMoment {
        var lines = stopped == nil ? SugarCubeFlattener.lines(state.shown) : SugarCubeFlattener.lines(state.shown.isEmpty ? writer.items : state.shown)
        let question = stopped == nil ? state.pendingInput : nil
        if let answered, let at = lines.firstIndex(where: { $0.input == answered }) { lines.removeFirst(at + 1) }
        if let question, let at = lines.firstIndex(where: { $0.input == question.id }) { lines.removeLast(lines.count - at) }
        lines.removeAll { $0.input != nil }
        return SugarCubeMoment(passage: passage, lines: lines, links: stopped == nil ? SugarCubeRuntime.offered(state) : [], unsupported: unsupported,
                               errors: errors, error: stopped, entered: entered, question: question, weighed: weighed)
    }

    /// Answers the input field `input` of the page shown (`SugarCubeRuntime.answer(_:)`).
    func answer(_ input: SugarCubeInput, _ text: String) -> SugarCubeMoment {
        passage = state.history.last ?? ""
        let value = input.kind == .number ? "Number(" + SugarCubeScript.quoted(text.trimmingWhitespace) + ")" : SugarCubeScript.quoted(text)
        run("State.setVar(" + SugarCubeScript.quoted(input.variable) + ", " + value + "); 0", "<<\(input.kind == .number ? "numberbox" : "textbox")>>")
        state.answered.append(input.id)
        if let target = input.passage, state.pendingInput == nil, SugarCubeRuntime.offered(state).isEmpty {
            return enter(target)
        }
        return moment(after: input.id)
    }

    // MARK: Rendering

    /// The `[[links]]` in `nodes` (a clause not taken), at any depth, weighed as kept back for `reason`.
    func keepBack(_ nodes: [SugarCubeNode], reason: String) {
        for node in nodes {
            switch node {
            case .link(let link): weighed.append(TwineWeighedLink(passage: writtenIn, text: link.text, target: link.target, keptBack: reason))
            case .macro(let macro): for clause in macro.clauses { keepBack(clause.body, reason: reason) }
            default: break
            }
        }
    }

    func render(_ nodes: [SugarCubeNode]) {
        for node in nodes {
            guard stopped == nil, loopControl == nil else { return }
            steps += 1
            if steps > SugarCubeRuntime.maximumSteps {
                stopped = "the passage wrote more than \(SugarCubeRuntime.maximumSteps) pieces (a loop of <<include>>?)"
                return
            }
            switch node {
            case .text(let text): writer.text(nobr > 0 ? text.replacing("\n", with: " ") : text)
            case .tag(let tag): self.tag(tag)
            case .lineBreak: writer.text(nobr > 0 ? " " : "\n")
            case .verbatim(let text): writer.text(SugarCubeFlattener.escaped(text))
            case .variable(let expression):
                // parserlib.js `nakedVariable`: nothing (undefined, null) is the text as written.
                guard let value = run("(function (v) { return __pj.isNothing(v) ? '\\u0000' : __pj.print(v); })(" + SugarCubeScript.desugar(expression) + ")",
                                      "the variable \(expression)")
                else { continue }
                if value == "\u{0}" { writer.text(expression) } else { renderMarkup(value) }
            case .template(let name):
                // markup/parserlib.js `template`: an array is one of its templates at random; a function's value
                // is `stringFrom`'s; no such template is the text as written.
                guard let json = run("__pj.template(" + SugarCubeScript.quoted(name) + ")", "the template ?\(name)"),
                      let value = try? JSONParser.parse(json)
                else { continue }
                if let message = value["error"]?.stringValue {
                    fail("cannot execute function template ?\(name)", message)
                } else if let text = value["text"]?.stringValue {
                    renderMarkup(text)
                } else {
                    writer.text("?" + name)
                }
            case .link(let link):
                weighed.append(TwineWeighedLink(passage: writtenIn, text: link.text, target: link.target))
                let target = Self.isExternal(link.target) ? link.target : evalPassage(link.target)
                let label = link.textIsTarget ? target : evalText(link.text)
                if Self.isExternal(link.target) {  // a web address: the browser's, not a passage (its text stays)
                    writer.text(SugarCubeFlattener.escaped(label))
                    continue
                }
                addLink(label: SugarCubeFlattener.escaped(label), action: .goto(target, setter: link.setter))
            case .image(let image):
                writer.append(.image(source: image.source, alt: image.title))
                if let target = image.link {
                    addLink(label: image.title.map(SugarCubeFlattener.escaped) ?? "(the picture)", action: .goto(evalPassage(target), setter: image.setter))
                }
            case .macro(let macro): self.macro(macro)
            }
        }
    }

    /// An HTML tag. `<a>`, `<button>` and `<area>` with `data-passage` (and `data-setter`) are links, as
    /// SugarCube's `processDataAttributes` makes them: what they hold is the link's text.
    func tag(_ tag: String) {
        if let link = SugarCubeWriter.passageLink(opening: tag) {
            writer.openLink(link.name, passage: link.evaluated ? evalPassage(link.passage) : link.passage, setter: link.setter)
        } else if let link = writer.closeLink(tag) {
            let label = SugarCubeFlattener.visibleText(link.items.linkText)
            addLink(label: label.isEmpty ? SugarCubeFlattener.escaped(link.passage) : label, action: .goto(link.passage, setter: link.setter))
        } else {
            writer.tag(tag)
        }
    }

    /// Whether a link's target is a web address (SugarCube's external links), not a passage.
    static func isExternal(_ target: String) -> Bool {
        let lower = target.lowercased()
        return ["http://", "https://", "mailto:", "ftp://", "file:"].contains { lower.hasPrefix($0) }
    }

    /// Renders markup made while playing (`<<print>>`'s value, a widget's body, a custom macro's output).
    func renderMarkup(_ source: String) {
        guard source.contains(where: { "<[$_'/@\n?-=^~{\"".contains($0) }) else {
            writer.text(nobr > 0 ? source : source)
            return
        }
        guard depth < SugarCubeRuntime.maximumDepth else {
            stopped = "markup printed inside itself more than \(SugarCubeRuntime.maximumDepth) times"
            return
        }
        depth += 1
        render(runtime.nodes(source))
        depth -= 1
    }

    /// A link on the page: its text where it is written, its action among the state's links.
    func addLink(label: String, action: SugarCubeLink.Action) {
        var action = action
        if case .body(let source, let mode, nil, let target, let setter) = action, let captured = captures.last {
            action = .body(source: source, mode: mode, captured: captured, target: target, setter: setter)
        }
        let link = SugarCubeLink(id: state.nextLinkId, label: label, action: action)
        state.nextLinkId += 1
        state.links.append(link)
        writer.append(.link(id: link.id, label: label))
    }

    /// Changes the element `id` on the page being written, or on the page shown (a link's body).
    func changeElement(_ id: String, _ change: ([SugarCubeItem]) -> [SugarCubeItem]?) -> Bool {
        writer.change(element: id, change) || page.change(element: id, change)
    }
}

extension SugarCubeWriter {
    func change(element id: String, _ change: ([SugarCubeItem]) -> [SugarCubeItem]?) -> Bool {
        for level in stackIndices.reversed() where changeLevel(level, id, change) { return true }
        return false
    }
}
