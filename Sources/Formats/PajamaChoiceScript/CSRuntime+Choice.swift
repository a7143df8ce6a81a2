import PajamaBasics
extension CSRuntime {
    struct ParsedOption {
        var name: String
        /// 1-based: the option's body starts at this 0-based line.
        var line: Int
        var reuse: String?
        var unselectable: Bool
        var suboptions: [ParsedOption]?
    }

    /// `*choice` and `*fake_choice` (scene.js's choice, parseOptions and renderOptions): the options as the
    /// reader sees them; a choice of several groups (`*choice colour toy`) offers each combination.
    func choice(_ data: String, fake: Bool) throws(CSError) -> CSStop {
        let start = state.line
        let groups = data.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for group in groups where !group.utf8.allSatisfy(CSScene.isWord) {
            throw CSError("invalid choice group name: \(group)")
        }
        let fallsThrough = try fake ? true : implicitControlFlow()
        var options = try parseOptions(startIndent: state.indent, groups: groups[...], fallsThrough: fallsThrough, expected: nil)
        try replaceNames(&options)
        paragraph()
        for option in options { state.temps.choiceEnds[String(option.line - 1)] = fallsThrough ? state.line : 0 }
        state.line = start
        var shown: [CSOption] = []
        var pending: [CSPendingOption] = []
        func flatten(_ options: [ParsedOption], prefix: [String], selectable: Bool) {
            for option in options {
                let names = prefix + [option.name]
                let canTake = selectable && !option.unselectable
                if let suboptions = option.suboptions {
                    flatten(suboptions, prefix: names, selectable: canTake)
                } else {
                    shown.append(CSOption(text: names.joined(separator: " / "), selectable: canTake))
                    pending.append(CSPendingOption(line: option.line, reuse: option.reuse, selectable: canTake))
                }
            }
        }
        flatten(options, prefix: [], selectable: true)
        state.pending = pending
        return .choice(shown)
    }

    private func replaceNames(_ options: inout [ParsedOption]) throws(CSError) {
        for index in options.indices {
            options[index].name = try replaceVariables(options[index].name)
            if var suboptions = options[index].suboptions {
                try replaceNames(&suboptions)
                options[index].suboptions = suboptions
            }
        }
    }

    /// scene.js's parseOptions: the options of the block after `state.line`, whose `*if`s are run as they come.
    func parseOptions(startIndent: Int, groups: ArraySlice<String>, fallsThrough: Bool, expected: [ParsedOption]?) throws(CSError) -> [ParsedOption] {
        let scene = try currentScene()
        var nextIndent: Int?
        var options: [ParsedOption] = []
        var ifLines: [Int] = []
        let current = (groups.first ?? "").isEmpty ? "choice" : groups.first!
        var suboptionsSeen = false
        var bodyExpected = false
        var previousSuboptions: [ParsedOption]?
        var names: [String: Int] = [:]
        var anySelectable = false
        while true {
            state.line += 1
            errorLine = state.line
            guard state.line < scene.lines.count else { break }
            if scene.isBlank(state.line) { continue }
            let indent = scene.indent(state.line)
            if nextIndent == nil {
                if indent <= startIndent { throw CSError("invalid indent, expected at least one '\(current)'") }
                state.indent = indent
                nextIndent = indent
            }
            if indent <= startIndent { break }
            if indent < state.indent { state.indent = indent }
            if indent > state.indent {
                if groups.count > 1 { throw CSError("invalid indent, there were subchoices remaining: [\(groups.joined(separator: ","))]") }
                bodyExpected = false
                continue
            }
            // An option's line counts as run when the option is offered; a condition's when it is run.
            let looked = CSLine(scene: scene.name, line: state.line)
            var line = scene.lines[state.line]
            var unselectable = false
            var reuse = state.temps.reuse
            if var (command, data) = CSScene.command(in: line) {
                func removeModifier(parenthetical: Bool) throws(CSError) {
                    if parenthetical {
                        guard let open = line.firstIndex(of: "("), let close = Self.matchingParenthesis(in: line, from: open) else {
                            throw CSError("missing closing parenthesis")
                        }
                        line = String(line[line.index(after: close)...]).trimmingSpaces
                    } else {
                        line = data
                    }
                    if let (nextCommand, nextData) = CSScene.command(in: line) {
                        command = nextCommand
                        data = nextData
                    } else {
                        command = ""
                    }
                }
                if command == "hide_reuse" { reuse = "hide"; try removeModifier(parenthetical: false) }
                if command == "disable_reuse" { reuse = "disable"; try removeModifier(parenthetical: false) }
                if command == "allow_reuse" { reuse = "allow"; try removeModifier(parenthetical: false) }
                if command == "random_weight" { try removeModifier(parenthetical: true) }
                switch command {
                case "print":
                    line = try evaluate(data).text
                case "if":
                    ifLines.append(state.line)
                    if let (result, option) = try optionIf(data) {
                        guard result else { continue }
                        line = option
                    } else {
                        linesRun.append(looked)
                        try ifCommand(data)
                        continue
                    }
                case "else":
                    if !data.isEmpty { throw CSError("Invalid content after *else; move the #option to the next line, indented: \(data)") }
                    linesRun.append(looked)
                    try skipBranch(inElse: true)
                    continue
                case "elseif", "elsif":
                    if let (_, option) = try optionIf(data) {
                        throw CSError("Invalid content after *\(command); move the #option to the next line, indented: \(option)")
                    }
                    linesRun.append(looked)
                    try skipBranch(inElse: true)
                    continue
                case "selectable_if":
                    guard let (result, option) = try optionIf(data) else { throw CSError("Couldn't parse the line after *selectable_if: \(data)") }
                    line = option
                    unselectable = unselectable || !result
                case "comment":
                    continue
                case "":
                    break
                default:
                    if Self.commands.contains(command) { throw CSError("Invalid indent? Expected an #option here, not *\(command)") }
                    throw CSError("Non-existent command '\(command)'")
                }
            }
            if reuse != "allow", state.temps.used.contains(state.line) {
                if reuse == "hide" { continue }
                unselectable = true
            }
            let trimmed = line.trimmingSpaces
            guard trimmed.hasPrefix("#"), trimmed.dropFirst().contains(where: { $0 != " " && $0 != "\t" }) else {
                throw CSError("Expected option starting with #")
            }
            _ = try replaceVariables(line)
            let name = String(trimmed.dropFirst()).trimmingSpaces
            var option = ParsedOption(name: name, line: state.line + 1, reuse: reuse == "allow" ? nil : reuse, unselectable: unselectable)
            if let first = names[name] { throw CSError("Invalid option; conflicts with option '\(name)' on line \(first)") }
            names[name] = option.line
            if groups.count > 1 {
                option.suboptions = try parseOptions(startIndent: state.indent, groups: groups.dropFirst(), fallsThrough: fallsThrough, expected: previousSuboptions)
                state.indent = nextIndent ?? state.indent
                if previousSuboptions == nil { previousSuboptions = option.suboptions }
                suboptionsSeen = true
            } else {
                bodyExpected = true
            }
            if !unselectable { anySelectable = true }
            linesRun.append(looked)
            options.append(option)
        }
        if groups.count > 1, !suboptionsSeen { throw CSError("invalid indent, there were subchoices remaining: [\(groups.joined(separator: ","))]") }
        if bodyExpected, !fallsThrough { throw CSError("Expected choice body") }
        if !anySelectable { throw CSError("No selectable options") }
        if let expected {
            let expectedNames = Set(expected.map(\.name))
            let names = Set(options.map(\.name))
            if let missing = expected.first(where: { !names.contains($0.name) }) {
                throw CSError("Missing expected suboption '\(missing.name)'; all suboptions must have same option list")
            }
            if let added = options.first(where: { !expectedNames.contains($0.name) }) {
                throw CSError("Added unexpected suboption '\(added.name)'; all suboptions must have same option list")
            }
        }
        state.line = previousNonBlankLine(in: scene)
        for line in ifLines { state.temps.choiceEnds[String(line)] = fallsThrough ? state.line : 0 }
        return options
    }

    /// An option's `*if (condition) #text` or `*selectable_if (condition) #text`: the condition's truth and the
    /// option; nil when the line has no option after the parenthesis.
    private func optionIf(_ data: String) throws(CSError) -> (Bool, String)? {
        // As /^\s*\((.*)\)\s+(#.*)/: the last ")" followed by spaces and "#".
        let text = data.drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("(") else { return nil }
        var cursor = text.endIndex
        while cursor > text.startIndex {
            cursor = text.index(before: cursor)
            guard text[cursor] == ")" else { continue }
            var after = text.index(after: cursor)
            guard after < text.endIndex, text[after] == " " || text[after] == "\t" else { continue }
            while after < text.endIndex, text[after] == " " || text[after] == "\t" { after = text.index(after: after) }
            guard after < text.endIndex, text[after] == "#" else { continue }
            let condition = String(text[text.index(after: text.startIndex)..<cursor])
            return (try truth(try evaluate(condition)), String(text[after...]))
        }
        return nil
    }

    static func matchingParenthesis(in line: String, from open: String.Index) -> String.Index? {
        var depth = 0
        var cursor = line.index(after: open)
        while cursor < line.endIndex {
            if line[cursor] == "(" { depth += 1 } else if line[cursor] == ")" {
                if depth == 0 { return cursor }
                depth -= 1
            }
            cursor = line.index(after: cursor)
        }
        return nil
    }
}
