import PajamaBasics
/// Renders one moment: a passage entered (with its `header` and `footer` passages, and the `startup` ones at
/// the start), or a revealed hook; follows `(goto:)`. Errors inside a macro are a notice in place of it;
/// only a runaway story (too many gotos or steps) stops the moment.
final class HarloweEvaluator {
    unowned let runtime: HarloweRuntime
    var state: HarloweState
    var temps: [String: HarloweValue] = [:]
    var root = HarloweOutputHook(name: nil)
    var current: HarloweOutputHook
    var links: [HarloweLink] = []
    /// The `[[links]]` weighed in this moment, shown or kept back.
    var weighed: [TwineWeighedLink] = []
    /// The passage whose text is rendering (a displayed one inside its displayer): where a link is written.
    var writtenIn = ""
    var unsupported: [String] = []
    /// Whether a hook of the current `(if:)`/`(else-if:)` chain was shown (nil: no chain).
    var lastCondition: Bool?
    /// `it`: the target of a `(set:)`, the subject of the last comparison.
    var it: HarloweValue?
    var passage = ""
    /// The toggles (`''`, `//`...) open in the current hook.
    var toggles: Set<HarloweToggle> = []
    private var steps = 0
    private var displayDepth = 0
    /// While a link's hook is revealed: the text shown before it, which the hook may change in place.
    private var earlier: HarloweOutputHook?
    /// The hook changed `earlier`: it is shown again.
    private var changedEarlier = false

    enum Interrupt: Error {
        case goto(String)
        /// A macro could not run: the notice says why.
        case failure(String)
        /// The story ran away: the moment stops.
        case runaway(String)
    }

    init(runtime: HarloweRuntime, state: HarloweState) {
        self.runtime = runtime
        self.state = state
        current = root
    }

    // MARK: Moments

    /// Enters `target` (and follows its gotos).
    func enter(_ target: String, startup: Bool) -> HarloweMoment {
        var target = target
        var gotos = 0
        var runStartup = startup
        while true {
            resetOutput()
            state.links = []
            state.hidden = [:]
            guard let name = resolve(target) else {
                return moment(error: "there is no passage named \"\(target)\"")
            }
            passage = name
            state.history.append(name)
            do throws(Interrupt) {
                if runStartup {
                    runStartup = false
                    for startupPassage in runtime.tagged("startup") {
                        writtenIn = startupPassage.name
                        try render(runtime.nodes(startupPassage.text))
                    }
                }
                for header in runtime.tagged("header") {
                    writtenIn = header.name
                    try render(runtime.nodes(header.text))
                    current.items.append(.text("\n"))
                }
                writtenIn = name
                try render(runtime.nodes(runtime.story.passage(named: name)!.text))
                for footer in runtime.tagged("footer") {
                    current.items.append(.text("\n"))
                    writtenIn = footer.name
                    try render(runtime.nodes(footer.text))
                }
                return moment(error: nil)
            } catch {
                switch error {
                case .goto(let next):
                    gotos += 1
                    if gotos > HarloweRuntime.maximumGotos {
                        return moment(error: "more than \(HarloweRuntime.maximumGotos) (goto:) in a row (the last to \"\(next)\"): the story goes round for ever")
                    }
                    target = next
                case .failure(let message), .runaway(let message):
                    return moment(error: message)
                }
            }
        }
    }

    /// Shows a link's hook: its text (after the link's own when it stays), then the links still open. When the
    /// hook changes a named hook of the text shown before (`(replace: ?sack)`), that text is shown again with
    /// the change in place (the link taken no longer a link), the hook's own text after it.
    func reveal(_ source: String, temps: [String: HarloweValue], label: String?, link: String, repeats: Bool,
                keeping rest: [HarloweLink], at position: Int) -> HarloweMoment {
        resetOutput()
        earlier = state.shown?.output()
        self.temps = temps
        passage = state.history.last ?? runtime.story.start
        writtenIn = passage
        if let label { current.items.append(.text(label + " ")) }
        do throws(Interrupt) {
            try render(runtime.nodes(source))
        } catch {
            switch error {
            case .goto(let target): return enter(target, startup: false)
            case .failure(let message), .runaway(let message): return moment(error: message)
            }
        }
        if changedEarlier, let before = earlier {
            // The earlier text again, changed; the hook's own text where its link was (the link's text kept
            // before it for `(link-reveal:)`), or after the text for a link that stays or a clicked hook.
            let own = root
            if let label, case .text(let first)? = own.items.first, first == label + " " { own.items.removeFirst() }
            let hasText = !own.plainText.allSatisfy(\.isWhitespace)
            let replacement: [HarloweOutputHook.Item] = (label.map { [.text(HarloweFlattener.escaped($0))] } ?? []) + (hasText ? [.hook(own)] : [])
            if repeats || !before.replaceLink(HarloweFlattener.escaped(link), with: replacement), hasText {
                before.items += [.text("\n"), .hook(own)]
            }
            root = before
            current = root
        }
        earlier = nil
        changedEarlier = false
        let insertAt = min(max(0, position), rest.count)
        links = Array(rest[..<insertAt]) + links + Array(rest[insertAt...])
        return moment(error: nil)
    }

    private func resetOutput() {
        root = HarloweOutputHook(name: nil)
        current = root
        links = []
        weighed = []
        temps = [:]
        lastCondition = nil
        toggles = []
        steps = 0
    }

    private func moment(error: String?) -> HarloweMoment {
        if error != nil { links = [] }
        state.links = links
        state.shown = HarloweShownText(root)
        return HarloweMoment(passage: passage, lines: HarloweFlattener.lines(root), links: links, unsupported: unsupported, error: error,
                             weighed: weighed)
    }

    /// The passage `name` names: as written, else without the spaces around it.
    func resolve(_ name: String) -> String? {
        if runtime.story.passage(named: name) != nil { return name }
        let trimmed = name.trimmingSpaces()
        return runtime.story.passage(named: trimmed) != nil ? trimmed : nil
    }

    /// The passage a link leads to: its target as written (or without the spaces around it), else the passage
    /// its markup names once rendered (`[[Back->$lastPage]]`, as Harlowe reads it); nil when neither is a
    /// passage: Harlowe shows such a link broken (its text, which cannot be clicked), so it is not offered.
    func linkTarget(_ target: String) -> String? {
        if let found = resolve(target) { return found }
        let rendered = plain(target)
        return rendered == target ? nil : resolve(rendered)
    }

    func note(unsupported name: String) {
        if !unsupported.contains(name) { unsupported.append(name) }
    }

    // MARK: Nodes

    func render(_ nodes: [HarloweNode]) throws(Interrupt) {
        var index = 0
        while index < nodes.count {
            steps += 1
            if steps > HarloweRuntime.maximumSteps {
                throw .runaway("more than \(HarloweRuntime.maximumSteps) steps in one passage: the story goes round for ever")
            }
            if case .html(let tag) = nodes[index], let element = HarloweHiddenHTML.hiddenElement(tag) {
                // An element the author hid (`style="display:none"`): its macros run, nothing of it is shown or offered.
                let end = HarloweHiddenHTML.end(of: element, in: nodes, after: index)
                try renderHidden(nodes[(index + 1)..<end])
                index = end + 1
                continue
            }
            try render(nodes[index])
            index += 1
        }
    }

    private func render(_ node: HarloweNode) throws(Interrupt) {
        switch node {
        case .text(let text): current.items.append(.text(text))
        case .newline: current.items.append(.text("\n"))
        case .link(let label, let target):
            weighed.append(TwineWeighedLink(passage: writtenIn, text: label, target: target))
            let (text, html) = styled(label)
            guard let passage = linkTarget(target) else {
                current.items.append(.text(html ?? HarloweFlattener.escaped(text)))  // broken, as Harlowe shows it: not a link
                break
            }
            links.append(HarloweLink(label: text, action: .goto(passage), styled: html))
            current.items.append(.link(HarloweFlattener.escaped(text)))
        case .macro(let call): try run(call)
        case .hook(let hook): try show(hook, changer: nil)
        case .variable(let expression):
            do throws(Interrupt) {
                try write(try value(expression))
            } catch {
                guard case .failure(let message) = error else { throw error }
                current.items.append(.notice(message))
            }
        case .attached(let expression, let hook):
            let held: HarloweValue
            do throws(Interrupt) {
                held = try value(expression)
            } catch {
                guard case .failure(let message) = error else { throw error }
                current.items.append(.notice(message))
                try show(hook, changer: nil)
                return
            }
            if case .changer(let changer) = held {
                try show(hook, changer: changer)
            } else {
                try render(.variable(expression))  // not a changer: the value printed, then the hook as it is
                try show(hook, changer: nil)
            }
        case .toggle(let toggle):
            if toggles.contains(toggle) {
                toggles.remove(toggle)
                current.items.append(.close(Self.tag(toggle)))
            } else {
                toggles.insert(toggle)
                current.items.append(.open(Self.tag(toggle)))
            }
        case .html(let tag):
            // A tag written over several lines is one tag: its line breaks are spaces between its attributes.
            current.items.append(.text(tag.contains("\n") ? String(tag.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) : tag))
        case .heading(let nodes):
            current.items.append(.open("b"))
            try render(nodes)
            current.items.append(.close("b"))
        case .aligner(let alignment): current.items.append(.align(HarloweStyle.alignTag(alignment)))
        case .rule: current.items.append(.text("――――――――"))
        case .bullet: current.items.append(.text("• "))
        case .verbatim(let text): current.items.append(.text(HarloweFlattener.escaped(text)))
        case .pageBreak: current.items.append(.text(String(HarloweFlattener.pageMark)))
        case .collapse(let nodes):
            let hook = HarloweOutputHook(name: nil)
            hook.collapses = true
            try within(hook) { () throws(Interrupt) in try render(nodes) }
        }
    }

    static func tag(_ toggle: HarloweToggle) -> String {
        switch toggle {
        case .bold, .strong: "b"
        case .italic, .em: "i"
        case .strike: "span class=\"dim\""
        case .sup: "span class=\"sup\""
        }
    }

    /// The plain text of markup (a link's label).
    func plain(_ markup: String) -> String { styled(markup).plain }

    /// Markup (a link's label) rendered: its plain text, and its HTML (as a passage's lines are) when it
    /// holds any tag, else nil.
    func styled(_ markup: String) -> (plain: String, html: String?) {
        guard markup.contains(where: { "'/*~^$_(<[`{".contains($0) }) else { return (markup, nil) }
        let saved = (root, current, toggles, links, lastCondition)
        let scratch = HarloweOutputHook(name: nil)
        root = scratch
        current = scratch
        toggles = []
        try? render(runtime.nodes(markup))
        (root, current, toggles, links, lastCondition) = saved
        let lines = HarloweFlattener.lines(scratch)
        let html = lines.map(\.text).joined(separator: " ")
        return (lines.map { InlineMarkup.strip($0.text) }.joined(separator: " "), html.contains("<") ? html : nil)
    }

    /// Renders into `hook`, appended to the current hook.
    func within(_ hook: HarloweOutputHook, _ body: () throws(Interrupt) -> Void) throws(Interrupt) {
        current.items.append(.hook(hook))
        let saved = (current, toggles, lastCondition)
        current = hook
        toggles = []
        lastCondition = nil
        defer { (current, toggles, lastCondition) = saved }
        try body()
    }

    /// Renders `nodes` inside an element the author hid: what they do is done, what they write is not shown
    /// and their links are not offered (`HarloweHiddenHTML`).
    func renderHidden(_ nodes: ArraySlice<HarloweNode>) throws(Interrupt) {
        let hook = HarloweOutputHook(name: nil)
        hook.hidden = true
        let offered = links.count
        defer { if links.count > offered { links.removeSubrange(offered...) } }
        try within(hook) { () throws(Interrupt) in try render(Array(nodes)) }
    }

    /// Writes a value where it is: a string's markup is rendered (as `(print:)` does), a command runs.
    func write(_ value: HarloweValue) throws(Interrupt) {
        switch value {
        case .string(let text):
            guard displayDepth < 50 else { throw .runaway("strings printed inside each other more than 50 deep") }
            displayDepth += 1
            defer { displayDepth -= 1 }
            try render(runtime.nodes(text))
        case .command(let command): try perform(command)
        case .changer: throw .failure("a changer needs a hook after it")
        case .lambda: throw .failure("a lambda (where, via, each) is given to a macro, not printed")
        default: current.items.append(.text(HarloweFlattener.escaped(value.printed)))
        }
    }

    // MARK: Macros in prose

    private func run(_ call: HarloweMacroCall) throws(Interrupt) {
        let result: HarloweValue
        do throws(Interrupt) {
            if call.joined.isEmpty {
                result = try macro(call)
            } else {
                // `(a:)+(b:)[...]`: the sum of the changers, as `(set: $c to (a:)+(b:))` makes it.
                var single = call
                single.joined = []
                result = try value(call.joined.reduce(HarloweExpr.macro(single)) { .binary("+", $0, .macro($1)) })
            }
        } catch {
            guard case .failure(let message) = error else { throw error }
            current.items.append(.notice(message))
            return
        }
        switch result {
        case .changer(let changer):
            if let hook = call.hook { try show(hook, changer: changer, macro: call.written) }
        case .command(let command):
            do throws(Interrupt) {
                try perform(command)
            } catch {
                guard case .failure(let message) = error else { throw error }
                current.items.append(.notice(message))
            }
            if let hook = call.hook { try show(hook, changer: nil) }
        default:
            try write(result)
            if let hook = call.hook { try show(hook, changer: nil) }
        }
    }

    func perform(_ command: HarloweCommand) throws(Interrupt) {
        switch command {
        case .goto(let target):
            guard resolve(target) != nil else { throw .failure("(goto:) there is no passage named \"\(target)\"") }
            throw .goto(target)
        case .linkGoto(let text, let target):
            let label = plain(text)
            guard let target = linkTarget(target) else {
                current.items.append(.text(HarloweFlattener.escaped(label)))  // broken: its text, not a link
                return
            }
            links.append(HarloweLink(label: label, action: .goto(target)))
            current.items.append(.link(HarloweFlattener.escaped(label)))
        case .reveal(let text, let source):
            let label = plain(text)
            links.append(HarloweLink(label: label, action: .reveal(source: source, temps: temps, repeats: false, keepsText: true)))
            current.items.append(.link(HarloweFlattener.escaped(label)))
        case .print(let value): try write(value)
        case .display(let name):
            guard let found = resolve(name), let passage = runtime.story.passage(named: found) else {
                throw .failure("(display:) there is no passage named \"\(name)\"")
            }
            guard displayDepth < 50 else { throw .runaway("(display:) inside (display:) more than 50 deep") }
            displayDepth += 1
            let displayer = writtenIn
            writtenIn = found
            defer {
                displayDepth -= 1
                writtenIn = displayer
            }
            try render(runtime.nodes(passage.text))
        case .show(let names):
            for name in names {
                var hooks = root.hooks(named: name).filter(\.hidden)
                if hooks.isEmpty, let earlier {
                    hooks = earlier.hooks(named: name).filter(\.hidden)  // shown in place in the text shown before
                    if !hooks.isEmpty { changedEarlier = true }
                }
                guard let source = state.hidden[name] else {
                    for hook in hooks { hook.hidden = false }
                    continue
                }
                if hooks.isEmpty {
                    try render(runtime.nodes(source))
                } else {
                    for hook in hooks where hook.items.isEmpty {
                        hook.hidden = false
                        let saved = (current, toggles)
                        current = hook
                        toggles = []
                        defer { (current, toggles) = saved }
                        try render(runtime.nodes(source))
                    }
                    for hook in hooks { hook.hidden = false }
                }
            }
        case .hide(let names):
            for name in names { for hook in root.hooks(named: name) { hook.hidden = true } }
        case .unsupported(let name):
            note(unsupported: name)
            current.items.append(.notice("\(TwineScan.shown(macro: name)) is not played in Pajama"))
        case .nothing:
            break
        }
    }

    // MARK: Hooks

    /// The `[[links]]` in `nodes` (a hook not shown), at any depth, weighed as kept back for `reason`.
    private func keepBack(_ nodes: [HarloweNode], reason: String) {
        for node in nodes {
            switch node {
            case .link(let label, let target):
                weighed.append(TwineWeighedLink(passage: writtenIn, text: label, target: target, keptBack: reason))
            case .hook(let hook), .attached(_, let hook): keepBack(hook.body, reason: reason)
            case .macro(let call): if let hook = call.hook { keepBack(hook.body, reason: reason) }
            case .heading(let inner), .collapse(let inner): keepBack(inner, reason: reason)
            default: break
            }
        }
    }

    /// Shows a hook as its changer says (`macro`: the changer's macro as written, for the reason a link in a
    /// hook not shown was kept back).
    func show(_ hook: HarloweHook, changer: HarloweChanger?, macro: String? = nil) throws(Interrupt) {
        var opens: [String] = []
        var repeating: (variable: String, items: [HarloweValue])?
        for effect in changer?.effects ?? [] {
            switch effect {
            case .condition(let shown):
                if !shown {
                    let reason = macro.map { "the (\($0):) hook it is in was never shown" } ?? "the hook it is in was never shown (its condition never true)"
                    keepBack(hook.body, reason: reason)
                    return
                }
            case .hidden:
                if let name = hook.name {
                    state.hidden[name] = hook.source
                    let output = HarloweOutputHook(name: name)
                    output.hidden = true
                    current.items.append(.hook(output))
                }
                return
            case .link(let text, let keepsText, let repeats, let target):
                let label = plain(text)
                var source = hook.source
                if let target { source += "(goto: \"" + target.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"") + "\")" }
                links.append(HarloweLink(label: label, action: .reveal(source: source, temps: temps, repeats: repeats, keepsText: keepsText)))
                current.items.append(.link(HarloweFlattener.escaped(label)))
                return
            case .click(let target):
                let label = root.hooks(named: target).map(\.plainText).first { !$0.isEmpty } ?? target
                links.append(HarloweLink(label: InlineMarkup.strip(label), action: .reveal(source: hook.source, temps: temps, repeats: false, keepsText: false)))
                return
            case .replace(let names), .append(let names), .prepend(let names):
                let output = HarloweOutputHook(name: nil)
                let saved = (current, toggles)
                current = output
                toggles = []
                try render(hook.body)
                (current, toggles) = saved
                var targets = names.flatMap { root.hooks(named: $0) }
                if targets.isEmpty, let earlier {
                    // A hook of the text shown before (a link's hook changing the passage above it).
                    targets = names.flatMap { earlier.hooks(named: $0) }
                    if !targets.isEmpty { changedEarlier = true }
                }
                if targets.isEmpty {
                    current.items.append(.hook(output))
                }
                for target in targets {
                    switch effect {
                    case .replace: target.items = [.hook(output)]
                    case .append: target.items.append(.hook(output))
                    default: target.items.insert(.hook(output), at: 0)
                    }
                    target.hidden = false
                }
                return
            case .style(let tag): opens.append(tag)
            case .repeating(let variable, let items): repeating = (variable, items)
            case .colour(let colour): if let tag = HarloweStyle.colourTag(colour) { opens.append(tag) }
            case .align(let marker): if let alignment = HarloweStyle.alignment(marker) { opens.append(HarloweStyle.alignTag(alignment)) }
            case .unsupported(let name):
                note(unsupported: name)
                current.items.append(.notice("\(TwineScan.shown(macro: name)) is not played in Pajama"))
                return
            }
        }
        if changer == nil, hook.hidden, let name = hook.name {
            state.hidden[name] = hook.source
            let output = HarloweOutputHook(name: name)
            output.hidden = true
            current.items.append(.hook(output))
            return
        }
        let output = HarloweOutputHook(name: hook.name)
        try within(output) { () throws(Interrupt) in
            for tag in opens { current.items.append(.open(tag)) }
            if let repeating {
                let saved = temps[repeating.variable]
                defer { temps[repeating.variable] = saved }
                for item in repeating.items {
                    temps[repeating.variable] = item
                    try render(hook.body)
                }
            } else {
                try render(hook.body)
            }
            for tag in opens.reversed() { current.items.append(.close(tag)) }
        }
    }
}

extension String {
    func trimmingSpaces() -> String { trimmingSpacesAndLines() }
}

/// Markup taken off a line of HTML (a link's label, the text of a clickable hook).
enum InlineMarkup {
    static func strip(_ html: String) -> String {
        var result = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true; continue }
            if character == ">", inTag { inTag = false; continue }
            if !inTag { result.append(character) }
        }
        return TwineHTML.decodeEntities(result)
    }
}
