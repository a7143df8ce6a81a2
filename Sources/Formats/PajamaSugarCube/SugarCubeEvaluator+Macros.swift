import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaJSON

/// SugarCube's macros (docs/sugarcube.md, "Macros").
extension SugarCubeEvaluator {
    /// The look-only macros: their bodies are shown, their effect is not (a terminal has no CSS).
    static let lookOnly: Set<String> = ["addclass", "removeclass", "toggleclass", "css", "transition", "t8n", "stopaudio", "removeaudio"]
    /// Macros with nothing to show or do in a terminal (their arguments are not evaluated).
    static let silent: Set<String> = ["waitforaudio", "preload", "unmute", "mute", "redo", "title", "noscript", "run-once"]

    /// SugarCube 2.37.3's own macros (`Macro.add` in its macros/*.js): any other name is a custom macro or a widget,
    /// or no macro at all.
    static let sugarCubes: Set<String> = [
        "-", "=", "actions", "addclass", "append", "audio", "back", "break", "button", "cacheaudio", "capture", "case", "checkbox",
        "choice", "continue", "copy", "createaudiogroup", "createplaylist", "cycle", "default", "display", "do", "done", "else", "elseif",
        "for", "forget", "goto", "if", "include", "link", "linkappend", "linkprepend", "linkreplace", "listbox", "masteraudio", "next",
        "nobr", "numberbox", "option", "optionsfrom", "playlist", "prepend", "print", "radiobutton", "redo", "remember", "remove",
        "removeaudiogroup", "removeclass", "removeplaylist", "repeat", "replace", "return", "run", "script", "set", "silent", "silently",
        "stop", "switch", "textarea", "textbox", "timed", "toggleclass", "track", "type", "unset", "waitforaudio", "widget",
    ]

    /// Every macro this evaluator plays (the others are named by `validate`).
    static let played: Set<String> = Set<String>([
        "set", "run", "unset", "script", "print", "=", "-", "if", "switch", "for", "break", "continue", "link", "button", "linkreplace",
        "linkappend", "linkprepend", "actions", "choice", "goto", "back", "return", "include", "display", "nobr", "silently", "capture",
        "widget", "replace", "append", "prepend", "remove", "timed", "repeat", "type", "done", "do", "textbox", "textarea", "numberbox",
        "checkbox", "radiobutton", "cacheaudio", "audio", "masteraudio", "playlist", "createaudiogroup", "createplaylist", "track",
        "option", "optionsfrom", "elseif", "else", "case", "default", "next",
    ]).union(lookOnly).union(silent)

    func macro(_ macro: SugarCubeMacro) {
        let name = macro.name
        let what = "<<\(name)>>"
        switch name {
        case "set", "run":
            run(SugarCubeScript.desugar(macro.arguments), what, wording: what + ": bad evaluation")
        case "unset":
            let names = macro.arguments.split(separator: ",").map { $0.trimmingSpaces }
            for variable in names where variable.count > 1 {
                run("delete " + SugarCubeScript.desugar(variable), what)
            }
        case "script":
            // script.js: `Scripting.evalJavaScript` (its declarations its own), or `evalTwineScript` for `twinescript`.
            let twineScript = macro.arguments.trimmingSpaces.lowercased().contains("twinescript")
            run("__pj.evalJS(" + SugarCubeScript.quoted(twineScript ? SugarCubeScript.desugar(macro.source) : macro.source) + "); 0", what,
                wording: what + ": bad evaluation")
        case "print", "=":
            if let value = printed(macro.arguments, what, wording: what + ": bad evaluation") { renderMarkup(value) }
        case "-":
            if let value = printed(macro.arguments, what, wording: what + ": bad evaluation") { writer.text(SugarCubeFlattener.escaped(value)) }
        case "if":
            var taken: Int?
            for (index, clause) in macro.clauses.enumerated() {
                if clause.name == "else" || holds(clause.arguments, "<<\(clause.name)>>", wording: "<<if>>: bad conditional expression in <<\(clause.name)>> clause\(index > 0 ? " (#\(index))" : "")") {
                    taken = index
                    render(clause.body)
                    break
                }
            }
            // The links of the clauses not taken were weighed and kept back.
            for (index, clause) in macro.clauses.enumerated() where index != taken {
                let written = clause.arguments.trimmingSpaces
                let condition = written.count > 60 ? written.prefix(59) + "…" : written
                keepBack(clause.body, reason: clause.name == "else" ? "the <<else>> it is under was never taken"
                         : "the <<\(clause.name) \(condition)>> it is under was never true")
            }
        case "switch":
            switchMacro(macro)
        case "for":
            forMacro(macro)
        case "break": loopControl = .breaks
        case "continue": loopControl = .continues
        case "link", "button":
            guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no link text") }
            let (label, linkTarget, setter) = linkParts(first)
            let target = args.count > 1 ? evalPassage(Self.text(args[1])) : linkTarget
            addLink(label: wikified(label), action: .body(source: macro.source, mode: .run, captured: nil, target: target, setter: setter))
        case "linkreplace", "linkappend", "linkprepend":
            guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no link text") }
            let mode: SugarCubeLink.BodyMode = name == "linkreplace" ? .replace : name == "linkappend" ? .append : .prepend
            addLink(label: wikified(Self.text(first)), action: .body(source: macro.source, mode: mode, captured: nil, target: nil, setter: nil))
        case "actions", "choice":
            guard let args = arguments(macro.arguments, what) else { return }
            if name == "choice" {
                guard let first = args.first else { return }
                let (label, target, setter) = linkParts(first)
                addLink(label: SugarCubeFlattener.escaped(args.count > 1 ? Self.text(args[1]) : label), action: .goto(target ?? label, setter: setter))
                return
            }
            for arg in args {
                let (label, target, setter) = linkParts(arg)
                addLink(label: SugarCubeFlattener.escaped(label), action: .goto(target ?? label, setter: setter))
                writer.text("\n")
            }
        case "goto":
            guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no passage named") }
            let (label, target, _) = linkParts(first)
            gotoTarget = target ?? label
            stopped = stopped ?? nil
        case "back", "return":
            let args = arguments(macro.arguments, what) ?? []
            let previous = state.history.count >= 2 ? state.history[state.history.count - 2] : nil
            var label = name == "back" ? "Back" : "Return"
            var target = previous
            if let first = args.first {
                let (text, linkTarget, _) = linkParts(first)
                label = text
                target = linkTarget ?? (args.count > 1 ? Self.text(args[1]) : previous)
            }
            guard let target else { return }
            addLink(label: SugarCubeFlattener.escaped(label), action: .back(target, pops: name == "back" && target == previous))
        case "include", "display":
            guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no passage named") }
            let (label, target, _) = linkParts(first)
            let named = target ?? label
            guard let included = runtime.passage(named: named) else { return fail(what, "there is no passage named \"\(named)\"") }
            guard depth < SugarCubeRuntime.maximumDepth else {
                stopped = "<<include>> inside itself more than \(SugarCubeRuntime.maximumDepth) times (passage \"\(named)\")"
                return
            }
            depth += 1
            let includer = writtenIn
            writtenIn = included.name
            render(runtime.nodes(included.text))
            writtenIn = includer
            depth -= 1
        case "nobr":
            nobr += 1
            render(macro.body)
            nobr -= 1
        case "silently":
            let saved = writer
            writer = SugarCubeWriter()
            render(macro.body)
            writer = saved
        case "capture":
            let names = macro.arguments.split(separator: ",").map { $0.trimmingSpaces }.filter { $0.hasPrefix("_") && $0.count > 1 }
            let object = "{" + names.map { SugarCubeScript.quoted(String($0.dropFirst())) + ": " + SugarCubeScript.desugar($0) }.joined(separator: ", ") + "}"
            let captured = run("JSON.stringify(" + object + ")", what) ?? "{}"
            captures.append(captured)
            render(macro.body)
            captures.removeLast()
        case "widget":
            guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no widget name") }
            let widget = Self.text(first)
            runtime.widgets[widget] = macro.source
            if args.dropFirst().contains(where: { Self.text($0) == "container" }) { runtime.addContainer(widget) }
        case "replace", "append", "prepend", "remove":
            elementMacro(macro)
        case "timed", "repeat", "type", "done", "do":
            for clause in macro.clauses { render(clause.body) }
        case "textbox", "textarea", "numberbox":
            fieldMacro(macro)
        case "checkbox", "radiobutton", "listbox", "cycle":
            inputMacro(macro)
        case "cacheaudio":
            guard let args = arguments(macro.arguments, what), args.count >= 2 else { return }
            state.tracks[Self.text(args[0])] = args.dropFirst().map(Self.text).map { $0.hasPrefix("format:") ? "" : $0 }.filter { !$0.isEmpty }
            run("SimpleAudio.tracks.add.apply(null, " + SugarCubeScript.argumentList(macro.arguments) + "); 0", what)
        case "audio", "masteraudio", "playlist":
            audioMacro(macro)
        case "createaudiogroup", "createplaylist", "track", "option", "optionsfrom", "elseif", "else", "case", "default", "next":
            return
        default:
            if Self.lookOnly.contains(name) {
                for clause in macro.clauses { render(clause.body) }
            } else if Self.silent.contains(name) {
                return
            } else if let widget = runtime.widgets[name] {
                callWidget(name, source: widget, macro: macro)
            } else if run("__pj.macros[" + SugarCubeScript.quoted(name) + "] || __pj.legacyMacro(" + SugarCubeScript.quoted(name) + ") ? 'yes' : ''", what) == "yes" {
                customMacro(macro)
            } else if !Self.sugarCubes.contains(name) {
                // No macro of SugarCube's, the story's or a widget: SugarCube's error, what follows read as markup,
                // and its closing tag an error of its own (the macro parser knows no container of that name).
                if !unsupported.contains(name) { unsupported.append(name) }
                noSuchMacro("<<\(name)>>")
                for clause in macro.clauses { render(clause.body) }
                if macro.isContainer { noSuchMacro("<</\(name)>>") }
            } else {
                if !unsupported.contains(name) { unsupported.append(name) }
                writer.append(.notice("<<\(name)>> is not played in Pajama"))
                for clause in macro.clauses { render(clause.body) }
            }
        }
    }

    /// A `<<link>>`-like macro's text as SugarCube shows it: wikified (`@@.nolink;girl@@` is "girl"), as the
    /// line of HTML a label is.
    func wikified(_ label: String) -> String {
        guard label.contains(where: { "<[$_'/@\n?-=^~{\"".contains($0) }) else { return SugarCubeFlattener.escaped(label) }
        let saved = writer
        writer = SugarCubeWriter()
        renderMarkup(label)
        let lines = SugarCubeFlattener.lines(writer.items)
        writer = saved
        return lines.map(\.text).joined(separator: " ")
    }

    /// A link argument's text, passage and setter: a `[[link]]` or a plain string.
    func linkParts(_ value: JSON) -> (label: String, target: String?, setter: String?) {
        if value["isLink"] != nil {
            let text = value["text"]?.stringValue ?? ""
            let target = value["link"]?.stringValue.map(evalPassage)
            return (evalText(text), target, value["setter"]?.stringValue)
        }
        if value["isImage"] != nil {  // `<<link [img[logo.svg][Restart]]>>`: a picture, its link the passage (button-link.js)
            return ("(the picture)", value["link"]?.stringValue.map(evalPassage), nil)
        }
        return (Self.text(value), nil, nil)
    }

    private func switchMacro(_ macro: SugarCubeMacro) {
        guard run("__pj.switches.push(" + SugarCubeScript.desugar(macro.arguments) + "\n); 0", "<<switch>>") != nil else { return }
        defer { run("__pj.switches.pop(); 0", "<<switch>>") }
        for clause in macro.clauses.dropFirst() {
            if clause.name == "default" {
                render(clause.body)
                return
            }
            let list = SugarCubeScript.argumentList(clause.arguments)
            if run(list + ".some(function (v) { return v === __pj.switches[__pj.switches.length - 1]; })", "<<case>>") == "true" {
                render(clause.body)
                return
            }
        }
    }

    private static let maximumIterations = 1000

    private func forMacro(_ macro: SugarCubeMacro) {
        let arguments = macro.arguments
        var iterations = 0
        func iterate(_ body: () -> Bool) {
            while stopped == nil {
                iterations += 1
                if iterations > Self.maximumIterations {
                    fail("<<for>>", "more than \(Self.maximumIterations) iterations (SugarCube's Config.macros.maxLoopIterations)")
                    return
                }
                guard body() else { return }
                render(macro.body)
                if loopControl == .breaks { loopControl = nil; return }
                loopControl = nil
            }
        }
        if let range = Self.rangeForm(arguments) {
            guard let count = run("__pj.ranges.push(__pj.entries(" + SugarCubeScript.desugar(range.collection) + "\n)); __pj.ranges[__pj.ranges.length - 1].length", "<<for>>"),
                  let total = Int(count)
            else { return }
            defer { run("__pj.ranges.pop(); 0", "<<for>>") }
            var index = 0
            iterate {
                guard index < total else { return false }
                var set = ""
                if let key = range.key { set += SugarCubeScript.desugar(key) + " = __pj.ranges[__pj.ranges.length - 1][\(index)][0]; " }
                set += SugarCubeScript.desugar(range.value) + " = __pj.ranges[__pj.ranges.length - 1][\(index)][1]; 0"
                index += 1
                return run(set, "<<for>>") != nil
            }
            return
        }
        let parts = Self.splitSemicolons(arguments)
        if parts.count == 3 {
            if !parts[0].trimmingSpaces.isEmpty { guard run(SugarCubeScript.desugar(parts[0]), "<<for>>") != nil else { return } }
            var first = true
            iterate {
                if !first, !parts[2].trimmingSpaces.isEmpty { guard run(SugarCubeScript.desugar(parts[2]), "<<for>>") != nil else { return false } }
                first = false
                return parts[1].trimmingSpaces.isEmpty || holds(parts[1], "<<for>>")
            }
        } else {
            iterate { arguments.trimmingSpaces.isEmpty || holds(arguments, "<<for>>") }
        }
    }

    /// `<<for _k, _v range collection>>` / `<<for _v range collection>>`.
    static func rangeForm(_ arguments: String) -> (key: String?, value: String, collection: String)? {
        guard let range = arguments.firstRange(of: " range ") else { return nil }
        let variables = arguments[..<range.lowerBound].split(separator: ",").map { $0.trimmingSpaces }
        guard (1...2).contains(variables.count), variables.allSatisfy({ ($0.hasPrefix("_") || $0.hasPrefix("$")) && $0.count > 1 && !$0.contains(" ") }) else { return nil }
        return (variables.count == 2 ? variables[0] : nil, variables.last!, String(arguments[range.upperBound...]))
    }

    /// The parts of a `<<for>>` split at its top-level semicolons.
    static func splitSemicolons(_ text: String) -> [String] {
        let chars = Array(text)
        var parts: [String] = []
        var current = ""
        var i = 0
        while i < chars.count {
            if chars[i] == "\"" || chars[i] == "'" || chars[i] == "`" {
                let end = SugarCubeScript.stringEnd(chars, from: i)
                current += String(chars[i..<end])
                i = end
                continue
            }
            if chars[i] == ";" { parts.append(current); current = "" } else { current.append(chars[i]) }
            i += 1
        }
        parts.append(current)
        return parts
    }

    private func elementMacro(_ macro: SugarCubeMacro) {
        let what = "<<\(macro.name)>>"
        guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no element named") }
        let selectors = Self.text(first).split(separator: ",").map { $0.trimmingSpaces }
        let saved = writer
        writer = SugarCubeWriter()
        if macro.name != "remove" { render(macro.body) }
        let output = writer.items
        writer = saved
        var found = false
        for selector in selectors {
            guard selector.hasPrefix("#") else { continue }
            let id = String(selector.dropFirst())
            let changed = changeElement(id) { items in
                switch macro.name {
                case "replace": output
                case "append": items + output
                case "prepend": output + items
                default: nil
                }
            }
            found = found || changed
        }
        if !found, !selectors.contains(where: { $0.hasPrefix(".") }) {
            fail(what, "no element \(selectors.joined(separator: ", ")) on the page")
        }
    }

    /// `<<textbox>>`, `<<numberbox>>` and `<<textarea>>` as numberbox-textbox.js and textarea.js check and set
    /// them: the variable gets the default value, and the page's text stops at the field for its question
    /// (`SugarCubeRuntime.answer(_:)`).
    private func fieldMacro(_ macro: SugarCubeMacro) {
        let what = "<<\(macro.name)>>"
        let number = macro.name == "numberbox"
        // The checks and the default, in the story's engine: the variable's name, its value, the passage.
        let check = "(function (a) {"
            + " if (a.length < 2) { var e = []; if (a.length < 1) e.push('variable name'); if (a.length < 2) e.push('default value'); return { error: 'no ' + e.join(' or ') + ' specified' }; }"
            + " if (typeof a[0] !== 'string') return { error: 'variable name argument is not a string' };"
            + " var name = a[0].trim();"
            + " if (name[0] !== '$' && name[0] !== '_') return { error: 'variable name \"' + a[0] + '\" is missing its sigil ($ or _)' };"
            + " var value = \(number) ? Number(a[1]) : a[1];"
            + " if (\(number) && Number.isNaN(value)) return { error: 'default value \"' + a[1] + '\" is neither a number nor can it be parsed into a number' };"
            + " var passage = null;"
            + " if (\(macro.name != "textarea")) { if (a.length > 3) passage = a[2]; else if (a.length > 2 && a[2] !== 'autofocus') passage = a[2]; }"
            + " if (passage !== null && typeof passage === 'object') passage = passage.link;"
            + " State.setVar(name, value);"
            + " return { name: name, shown: value === undefined || value === null ? '' : String(value), passage: passage === null || passage === undefined ? null : String(passage) };"
            + " })(" + SugarCubeScript.argumentList(macro.arguments) + ")"
        guard let json = run("JSON.stringify(" + check + ")", what), let field = try? JSONParser.parse(json) else { return }
        if let message = field["error"]?.stringValue { return fail(what, message) }
        let input = SugarCubeInput(id: state.inputs.count, variable: field["name"]?.stringValue ?? "", kind: number ? .number : .text,
                                   defaultValue: field["shown"]?.stringValue ?? "", passage: field["passage"]?.stringValue.map(evalPassage))
        state.inputs.append(input)
        writer.append(.input(input.id))
    }

    private func inputMacro(_ macro: SugarCubeMacro) {
        let what = "<<\(macro.name)>>"
        guard let args = arguments(macro.arguments, what), let first = args.first else { return fail(what, "no variable named") }
        let variable = Self.text(first)
        guard variable.count > 1, variable.hasPrefix("$") || variable.hasPrefix("_") else { return fail(what, "\"\(variable)\" is not a variable") }
        let target = SugarCubeScript.desugar(variable)
        switch macro.name {
        case "checkbox":
            guard args.count >= 3 else { return fail(what, "needs a variable, and its unchecked and checked values") }
            let checked = args.dropFirst(3).contains { Self.text($0) == "checked" }
            run(target + " = " + SugarCubeScript.argumentList(macro.arguments) + "[\(checked ? 2 : 1)]; 0", what)
        case "radiobutton":
            guard args.count >= 2 else { return fail(what, "needs a variable and a value") }
            if args.dropFirst(2).contains(where: { Self.text($0) == "checked" }) {
                run(target + " = " + SugarCubeScript.argumentList(macro.arguments) + "[1]; 0", what)
            }
        default:  // listbox, cycle: the option selected (or the first) is the variable's, and its label is shown
            let options = macro.clauses.dropFirst().compactMap { clause -> String? in
                switch clause.name {
                case "option": "{option: " + SugarCubeScript.argumentList(clause.arguments) + "}"
                case "optionsfrom":
                    "{from: (function () { return (" + SugarCubeScript.desugar(clause.arguments.trimmingSpaces.hasPrefix("{") ? "(" + clause.arguments + ")" : clause.arguments) + "\n); })()}"
                default: nil
                }
            }
            let autoselect = args.dropFirst().contains { Self.text($0) == "autoselect" }
            guard let json = run("__pj.selectOption(" + SugarCubeScript.quoted(variable) + ", [" + options.joined(separator: ", ") + "], \(autoselect))", what),
                  let chosen = try? JSONParser.parse(json)
            else { return }
            if let message = chosen["error"]?.stringValue { return fail(what, message) }
            if !unsupported.contains(macro.name) { unsupported.append(macro.name) }
            // A cycle's label is wikified (cycle.js), a listbox's `<option>` holds its label as text (listbox.js):
            // the page shows the one selected.
            guard let label = chosen["label"]?.stringValue else { return }
            if macro.name == "cycle" { renderMarkup(label) } else { writer.text(SugarCubeFlattener.escaped(label)) }
        }
    }

    private func audioMacro(_ macro: SugarCubeMacro) {
        let what = "<<\(macro.name)>>"
        guard let args = arguments(macro.arguments, what) else { return }
        let words = args.map(Self.text)
        if macro.name == "masteraudio" {
            if words.contains("stop") { state.loop = nil; writer.append(.loop(nil)) }
            return
        }
        guard let first = words.first else { return }
        let actions = Set(words.dropFirst())
        let ids = first.split(separator: " ").map(String.init)
        for id in ids {
            guard let source = state.tracks[id.hasPrefix(":") ? String(id.dropFirst()) : id]?.first ?? (id.contains(".") ? id : nil) else { continue }
            if actions.contains("stop") || actions.contains("pause") || actions.contains("fadeout") {
                if state.loop == source { state.loop = nil; writer.append(.loop(nil)) }
            } else if actions.contains("loop"), actions.contains("play") || actions.contains("fadein") {
                state.loop = source
                writer.append(.loop(source))
            } else if actions.contains("play") || actions.contains("fadein") || macro.name == "playlist" {
                writer.append(.sound(source))
            }
        }
    }

    private func callWidget(_ name: String, source: String, macro: SugarCubeMacro) {
        guard depth < SugarCubeRuntime.maximumDepth else {
            stopped = "the widget <<\(name)>> called inside itself more than \(SugarCubeRuntime.maximumDepth) times"
            return
        }
        let list = SugarCubeScript.argumentList(macro.arguments)
        guard run("__pj.argStack.push([__pj.temps.args, __pj.temps.contents, __pj.vars.args]); (function (a) { a.raw = " + SugarCubeScript.quoted(macro.arguments)
                  + "; a.full = " + SugarCubeScript.quoted(SugarCubeScript.desugar(macro.arguments)) + "; __pj.temps.args = a; __pj.vars.args = a; __pj.temps.contents = " + SugarCubeScript.quoted(macro.source) + "; })(" + list + "); 0",
                  "<<\(name)>>") != nil
        else { return }
        depth += 1
        // As widget.js renders a widget: into a fragment of its own, shown only when no error is in it; else
        // one error names them all (`Error: <<w>>: errors within widget code (Error: ...; Error: ...)`).
        let group = writer.isHidden ? nil : writer.beginGroup()
        render(runtime.nodes(source))
        if let group {
            let items = writer.endGroup(group)
            let errors = items.errorNotices
            if errors.isEmpty {
                for item in items { if case .text(let text) = item { writer.text(text) } else { writer.append(item) } }
            } else {
                writer.append(.notice("Error: <<\(name)>>: error\(errors.count > 1 ? "s" : "") within widget code (\(errors.joined(separator: "; ")))"))
            }
        }
        depth -= 1
        run("(function (s) { __pj.temps.args = s[0]; __pj.temps.contents = s[1]; if (s[2] === undefined) delete __pj.vars.args; else __pj.vars.args = s[2]; })(__pj.argStack.pop()); 0",
            "<<\(name)>>")
    }

    /// SugarCube's error for a macro it does not have (macro.js: `macro <<name>> does not exist`).
    private func noSuchMacro(_ what: String) {
        writer.append(.notice("Error: macro \(what) does not exist"))
        let line = (passage.isEmpty ? "" : "passage \"\(passage)\": ") + "macro \(what) does not exist"
        if !errors.contains(line) { errors.append(line) }
    }

    private func customMacro(_ macro: SugarCubeMacro) {
        let what = "<<\(macro.name)>>"
        let call = "__pj.callMacro(" + SugarCubeScript.quoted(macro.name) + ", " + SugarCubeScript.argumentList(macro.arguments) + ", "
            + SugarCubeScript.quoted(macro.arguments) + ", " + SugarCubeScript.quoted(macro.source) + ", "
            + SugarCubeScript.quoted(SugarCubeScript.desugar(macro.arguments)) + ", ["
            + macro.clauses.dropFirst().map { clause in
                "{name: " + SugarCubeScript.quoted(clause.name) + ", args: " + SugarCubeScript.argumentList(clause.arguments)
                    + ", contents: " + SugarCubeScript.quoted(clause.source) + "}"
            }.joined(separator: ", ") + "])"
        guard let json = run(call, what, wording: "cannot execute macro " + what) else { return }
        let made = try? JSONParser.parse(json)
        if let markup = made?["markup"]?.stringValue { renderMarkup(markup) }
        for error in made?["errors"]?.arrayValue ?? [] {
            fail("<<\(error["name"]?.stringValue ?? macro.name)>>", error["message"]?.stringValue ?? "")
        }
        run("__pj.endMacro()", what)
    }
}
