import FoundationEssentials
import Glibc
import PajamaBasics

extension CSRuntime {
    /// Commands that may stand only at the top of startup.txt.
    static let initialCommands: Set<String> = ["create", "create_array", "scene_list", "title", "author", "comment", "achievement", "product", "ifid"]

    /// Every command ChoiceScript knows (scene.js's validCommands).
    public static let commands: Set<String> = [
        "comment", "goto", "gotoref", "label", "looplimit", "finish", "abort", "choice", "create", "create_array", "temp", "temp_array",
        "delete", "delete_array", "set", "setref", "print", "if", "rand", "page_break", "line_break", "script", "else", "elseif", "elsif",
        "reset", "goto_scene", "fake_choice", "input_text", "ending", "share_this_game", "stat_chart", "subscribe", "show_password", "gosub",
        "return", "hide_reuse", "disable_reuse", "allow_reuse", "check_purchase", "restore_purchases", "purchase", "restore_game",
        "advertisement", "kindle_search", "kindle_product", "feedback", "save_game", "delay_break", "image", "kindle_image", "link",
        "input_number", "goto_random_scene", "restart", "more_games", "delay_ending", "end_trial", "login", "achieve", "scene_list", "title",
        "bug", "link_button", "check_registration", "sound", "author", "gosub_scene", "achievement", "check_achievements", "redirect_scene",
        "print_discount", "purchase_discount", "track_event", "timer", "youtube", "product", "text_image", "ai", "params", "config", "ifid",
        "page_break_advertisement", "finish_advertisement", "save_checkpoint", "restore_checkpoint",
    ]

    /// Runs command `command` of the line at `state.line`.
    func run(_ command: String, _ data: String) throws(CSError) -> Step {
        guard Self.commands.contains(command) else { throw CSError("Non-existent command '\(command)'") }
        if command == "comment" { return .next }
        if Self.initialCommands.contains(command) {
            guard state.scene.lowercased() == "startup", state.initialCommands else {
                throw CSError("Invalid \(command) instruction, only allowed at the top of startup.txt")
            }
        } else if command != "bug" {
            state.initialCommands = false
        }
        switch command {
        case "label", "author", "ifid", "product", "config", "subscribe", "show_password", "save_game", "feedback", "track_event",
             "kindle_image", "kindle_search", "kindle_product", "delay_break", "delay_ending", "advertisement", "share_this_game", "more_games",
             "check_registration", "login", "end_trial", "restore_purchases", "print_discount", "purchase_discount", "timer", "youtube", "ai",
             "page_break_advertisement":
            return .next
        case "title":
            state.stats["choice_title"] = .string(data)
        case "scene_list":
            _ = try skipBlock()
        case "stat_chart":
            try statChart()
        case "achievement":
            try skipAchievement()
        case "create":
            try create(data)
        case "temp":
            try temp(data)
        case "create_array", "temp_array":
            try defineArray(data, permanent: command == "create_array")
        case "delete":
            let name = data.lowercased()
            if state.temps.has(name) {
                state.temps.values[name] = nil
                state.temps.unset.removeAll { $0 == name }
            } else if state.stats[name] != nil {
                state.stats[name] = nil
            } else {
                throw CSError("Non-existent variable '\(name)'")
            }
        case "delete_array":
            break
        case "set":
            var stream = CSTokenStream(try CSToken.tokenize(data))
            let name = try reference(&stream)
            try set(name, &stream, line: data)
        case "setref":
            var stream = CSTokenStream(try CSToken.tokenize(data))
            guard let first = stream.next() else { throw CSError("Invalid setref instruction, no variable specified") }
            let name = try valueToken(first, &stream).text.lowercased()
            try set(name, &stream, line: data)
        case "print":
            let value = try evaluate(data)
            state.screenEmpty = false
            try printValue(value)
        case "if":
            try ifCommand(data)
        case "else", "elseif", "elsif":
            guard try implicitControlFlow() else {
                throw CSError("It is illegal to fall in to an *else statement; you must *goto or *finish before the end of the indented block.")
            }
            try skipBranch(inElse: true)
        case "goto":
            try goto(data)
        case "gotoref":
            try goto(try evaluate(data).text)
        case "gosub":
            let words = data.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard let label = words.first else { throw CSError("missing label") }
            var params: [CSValue] = []
            if words.count == 2 {
                var stream = CSTokenStream(try CSToken.tokenize(String(words[1])))
                while let token = stream.next() { params.append(try valueToken(token, &stream)) }
            }
            state.temps.substack.append(CSGosubFrame(line: state.line, indent: state.indent))
            state.temps.params = params
            try goto(String(label))
        case "gosub_scene":
            state.subscenes.append(CSSubsceneFrame(scene: state.scene, line: state.line + 1, indent: state.indent, temps: state.temps))
            let target = try parseGotoScene(data)
            return try enter(target.scene, label: target.label, params: target.params, from: (state.scene, state.line))
        case "goto_scene":
            if !state.subscenes.isEmpty { state.subscenes = [] }
            let target = try parseGotoScene(data)
            return try enter(target.scene, label: target.label, params: target.params, from: (state.scene, state.line))
        case "redirect_scene":
            throw CSError("The *redirect_scene command can only be used from the stats screen.")
        case "params":
            try params(data)
        case "return":
            return try returnCommand()
        case "finish":
            return try finish(data)
        case "ending", "restart", "abort":
            paragraph()
            return .stop(.ending)
        case "page_break":
            pageBreak(try replaceVariables(data.isEmpty ? "Next" : data))
        case "line_break":
            if !paragraphParts.isEmpty { paragraphParts.append("[n/]") }
        case "looplimit":
            state.temps.looplimit = Int(try number(.string(data)))
        case "hide_reuse": state.temps.reuse = "hide"
        case "disable_reuse": state.temps.reuse = "disable"
        case "allow_reuse": state.temps.reuse = "allow"
        case "choice", "fake_choice":
            return .stop(try choice(data, fake: command == "fake_choice"))
        case "input_text":
            var stream = CSTokenStream(try CSToken.tokenize(data))
            let name = try reference(&stream)
            guard state.temps.has(name) || state.stats[name] != nil else { throw CSError("Non-existent variable '\(name)'") }
            var allowsBlank = false
            while let token = stream.next() {
                guard token.kind == .variable, token.value == "long" || token.value == "allow_blank" else {
                    throw CSError("Couldn't understand this input_text option: \(token.value)")
                }
                if token.value == "allow_blank" { allowsBlank = true }
            }
            paragraph()
            let question = CSQuestion(variable: name, kind: .text(allowsBlank: allowsBlank))
            state.question = question
            return .stop(.input(question))
        case "input_number":
            var stream = CSTokenStream(try CSToken.tokenize(data))
            let name = try reference(&stream)
            guard state.temps.has(name) || state.stats[name] != nil else { throw CSError("Non-existent variable '\(name)'") }
            guard let minToken = stream.next() else { throw CSError("Invalid input_number statement, expected three args: varname min max") }
            let minimum = try valueToken(minToken, &stream)
            guard let low = CSValue.parseFloat(minimum.text) else { throw CSError("Invalid minimum, not numeric: \(minimum.text)") }
            guard let maxToken = stream.next() else { throw CSError("Invalid input_number statement, expected three args: varname min max") }
            let maximum = try valueToken(maxToken, &stream)
            guard stream.isEmpty else { throw CSError("Invalid input_number statement, expected three args: varname min max") }
            guard let high = CSValue.parseFloat(maximum.text) else { throw CSError("Invalid maximum, not numeric: \(maximum.text)") }
            guard low <= high else { throw CSError("Minimum \(minimum.text) should not be greater than maximum \(maximum.text)") }
            paragraph()
            let question = CSQuestion(
                variable: name, kind: .number(minimum: low, maximum: high, wholeNumbers: Self.isInteger(minimum) && Self.isInteger(maximum)))
            state.question = question
            return .stop(.input(question))
        case "rand":
            try rand(data)
        case "image", "text_image":
            paragraph()
            let text = try replaceVariables(data)
            let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard let source = words.first, !source.isEmpty else { throw CSError("*image requires the file name of an image") }
            let alt = words.count == 3 ? words[2].trimmingSpaces : nil
            output.append(.image(source, alt: alt?.isEmpty == false ? alt : nil))
            state.screenEmpty = false
        case "sound":
            output.append(.sound(data))
        case "link":
            // A link's words (its address when it has none), as ChoiceScript prints them: `[url=...]words[/url]`.
            let words = data.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).map(String.init)
            guard let href = words.first else { throw CSError("invalid line; this line should have an URL: \(data)") }
            let anchor = words.count == 2 ? words[1].trimmingSpaces : href
            try printLine("[url=" + href.replacing("]", with: "%5D") + "]" + (anchor.isEmpty ? href : anchor) + "[/url]")
            state.screenEmpty = false
        case "link_button":
            break
        case "script":
            output.append(.notice("(This game runs a script here; Pajama never runs a game's scripts.)"))
        case "bug":
            throw CSError(data.isEmpty ? "Bug" : "Bug: " + (try replaceVariables(data)))
        case "achieve":
            let name = data.lowercased()
            guard let achievement = game.achievements.first(where: { $0.name == name }) else {
                throw CSError("the achievement name \(name) was not declared as an *achievement in startup")
            }
            if !state.achieved.contains(name) {
                state.achieved.append(name)
                state.achieved.sort()
            }
            output.append(.achievement(title: achievement.title, description: achievement.postEarned))
        case "check_achievements":
            for achievement in game.achievements {
                state.temps.values["choice_achieved_" + achievement.name] = .bool(state.achieved.contains(achievement.name))
            }
        case "check_purchase":
            for product in data.split(separator: " ") { state.temps.values["choice_purchased_" + product.lowercased()] = .bool(true) }
            state.temps.values["choice_purchase_supported"] = .bool(false)
            state.temps.values["choice_purchased_everything"] = .bool(true)
        case "purchase":
            if !state.saidPurchase {
                state.saidPurchase = true
                output.append(.notice("(This game offers purchases here; in Pajama every part of it is yours.)"))
            }
        case "save_checkpoint":
            let slot = data.lowercased()
            state.stats["choice_saved_checkpoint" + (slot.isEmpty ? "" : "_" + slot)] = .bool(true)
            state.checkpoints[slot] = CSCheckpoint(scene: state.scene, line: state.line, indent: state.indent, stats: state.stats,
                                                  temps: state.temps, subscenes: state.subscenes)
        case "restore_checkpoint":
            let slot = data.lowercased()
            guard let checkpoint = state.checkpoints[slot] else { throw CSError("no checkpoint was saved\(slot.isEmpty ? "" : " in slot " + slot)") }
            paragraph()
            state.scene = checkpoint.scene
            state.line = checkpoint.line
            state.indent = checkpoint.indent
            state.stats = checkpoint.stats
            state.temps = checkpoint.temps
            state.subscenes = checkpoint.subscenes
        case "goto_random_scene":
            return try gotoRandomScene(data)
        case "reset":
            break
        case "restore_game", "finish_advertisement":
            return try command == "restore_game" ? .next : finish("")
        default:
            throw CSError("*\(command) is not supported")
        }
        return .next
    }

    func pageBreak(_ button: String) {
        guard !state.screenEmpty else { return }
        paragraph()
        output.append(.pageBreak(button))
        state.screenEmpty = true
    }

    func implicitControlFlow() throws(CSError) -> Bool {
        if let value = state.temps.values["implicit_control_flow"] ?? state.stats["implicit_control_flow"] { return try truth(value) }
        return false
    }

    // MARK: Variables

    func create(_ data: String) throws(CSError) {
        let (name, rest) = Self.splitName(data)
        guard !name.isEmpty else { throw CSError("Invalid create instruction, no variable specified: \(data)") }
        let tokens = try CSToken.tokenize(rest)
        guard tokens.count == 1, let token = tokens.first else {
            throw CSError(tokens.isEmpty ? "Invalid create instruction, no value specified: \(data)" : "Invalid create instruction, too many values: \(data)")
        }
        let value: CSValue
        switch token.kind {
        case .number: value = .string(token.value)
        case .string:
            if token.value.contains("${") || token.value.contains("@{") || token.value.contains("$!{") || token.value.contains("@!{") {
                throw CSError("Invalid create instruction, value must be a simple string without ${} or @{}: \(data)")
            }
            var stream = CSTokenStream([])
            value = try valueToken(token, &stream)
        case .variable where token.value.lowercased() == "true" || token.value.lowercased() == "false":
            value = .bool(token.value.lowercased() == "true")
        default:
            throw CSError("Invalid create instruction, value must be a number, true/false, or a quoted string: \(data)")
        }
        state.stats[name.lowercased()] = value
    }

    func temp(_ data: String) throws(CSError) {
        let (name, rest) = Self.splitName(data)
        guard !name.isEmpty else { throw CSError("Invalid temp instruction, no variable specified: \(data)") }
        let key = name.lowercased()
        let tokens = try CSToken.tokenize(rest)
        if tokens.isEmpty {
            state.temps.values[key] = nil
            if !state.temps.unset.contains(key) {
                state.temps.unset.append(key)
                state.temps.unset.sort()
            }
            return
        }
        var stream = CSTokenStream(tokens)
        let value = try evaluate(&stream, closing: nil)
        state.temps.unset.removeAll { $0 == key }
        state.temps.values[key] = value
    }

    func defineArray(_ data: String, permanent: Bool) throws(CSError) {
        let (name, rest) = Self.splitName(data)
        guard !name.isEmpty else { throw CSError("Invalid array instruction, no array name specified: \(data)") }
        var stream = CSTokenStream(try CSToken.tokenize(rest))
        guard let lengthToken = stream.next() else { throw CSError("Invalid array instruction, missing length: \(data)") }
        let length = Int(try number(try valueToken(lengthToken, &stream)))
        var values: [CSValue] = []
        while let token = stream.next() { values.append(try valueToken(token, &stream)) }
        guard values.count == 1 || values.count == length else {
            throw CSError("Invalid array instruction, expected 1 or \(length) values, found \(values.count): \(data)")
        }
        let key = name.lowercased()
        for index in 0..<max(0, length) {
            let value = values.count == 1 ? values[0] : values[index]
            if permanent { state.stats["\(key)_\(index + 1)"] = value } else { state.temps.values["\(key)_\(index + 1)"] = value }
        }
        if permanent { state.stats["\(key)_count"] = .number(Double(length)) } else { state.temps.values["\(key)_count"] = .number(Double(length)) }
    }

    /// The word at the start of `data` (`\w*`) and what follows it.
    static func splitName(_ data: String) -> (String, String) {
        let bytes = data.utf8
        var end = bytes.startIndex
        while end < bytes.endIndex, CSScene.isWord(bytes[end]) { end = bytes.index(after: end) }
        return (String(data[..<end]), String(data[end...]))
    }

    func set(_ name: String, _ stream: inout CSTokenStream, line: String) throws(CSError) {
        guard state.temps.has(name) || state.stats[name] != nil else { throw CSError("Non-existent variable '\(name)'") }
        guard let first = stream.peek else { throw CSError("Invalid set instruction, no expression specified: \(line)") }
        if first.kind == .operator || first.kind == .fairmath {
            stream.insert(CSToken(kind: .variable, value: name, position: 0))
        }
        try setVariable(name, try evaluate(&stream, closing: nil))
    }

    func setVariable(_ name: String, _ value: CSValue) throws(CSError) {
        let key = name.lowercased()
        if state.temps.has(key) {
            state.temps.unset.removeAll { $0 == key }
            state.temps.values[key] = value
        } else if state.stats[key] != nil {
            state.stats[key] = value
        } else {
            throw CSError("Non-existent variable '\(key)'")
        }
    }

    func params(_ data: String) throws(CSError) {
        var params = state.temps.params
        state.temps.values["param_count"] = .number(Double(params.count))
        var number = 1
        for word in data.split(whereSeparator: { !($0.isASCII && CSScene.isWord($0.asciiValue!)) }) {
            let name = word.lowercased()
            guard !params.isEmpty else { throw CSError("No parameter passed for \(name)") }
            let value = params.removeFirst()
            state.temps.unset.removeAll { $0 == name }
            state.temps.values[name] = value
            state.temps.values["param_\(number)"] = value
            number += 1
        }
        while !params.isEmpty {
            state.temps.values["param_\(number)"] = params.removeFirst()
            number += 1
        }
        state.temps.params = []
    }

    func returnCommand() throws(CSError) -> Step {
        if let frame = state.temps.substack.popLast() {
            state.line = frame.line
            state.indent = frame.indent
            return .next
        }
        if let frame = state.subscenes.popLast() {
            state.temps = frame.temps
            state.line = frame.line
            state.indent = frame.indent
            state.scene = frame.scene
            return .here
        }
        throw CSError("invalid return; gosub has not yet been called")
    }

    func rand(_ data: String) throws(CSError) {
        var stream = CSTokenStream(try CSToken.tokenize(data))
        guard !stream.isEmpty else { throw CSError("Invalid rand statement, expected three args: varname min max") }
        let name = try reference(&stream)
        guard state.temps.has(name) || state.stats[name] != nil else { throw CSError("Non-existent variable '\(name)'") }
        guard let minToken = stream.next() else { throw CSError("Invalid rand statement, expected three args: varname min max") }
        let minimum = try valueToken(minToken, &stream)
        guard let maxToken = stream.next() else { throw CSError("Invalid rand statement, expected three args: varname min max") }
        let maximum = try valueToken(maxToken, &stream)
        guard stream.isEmpty else { throw CSError("Invalid rand statement, expected three args: varname min max") }
        guard let low = CSValue.parseFloat(minimum.text), let high = CSValue.parseFloat(maximum.text) else {
            throw CSError("Invalid rand statement, min and max must be numbers")
        }
        let difference = high - low
        guard difference >= 0 else { throw CSError("Invalid rand statement, min must be less than max: \(minimum.text) > \(maximum.text)") }
        if difference == 0 {
            try setVariable(name, minimum)
            return
        }
        let random = CSRandom.next(&state.random)
        if Self.isInteger(minimum), Self.isInteger(maximum) {
            try setVariable(name, .number(low + (random * (difference + 1)).rounded(.down)))
        } else {
            try setVariable(name, .number(low + random * difference))
        }
    }

    /// scene.js's `isInt`: a value whose text is that of a whole number.
    static func isInteger(_ value: CSValue) -> Bool {
        guard let number = CSValue.parseFloat(value.text) else { return false }
        return number == number.rounded(.towardZero) && CSValue.format(number) == value.text
    }

    func skipAchievement() throws(CSError) {
        let scene = try currentScene()
        guard state.line + 1 < scene.lines.count, scene.indent(state.line + 1) > 0 else {
            throw CSError("Invalid *achievement. An indented description is required.")
        }
        state.line += 1
        var row = state.line + 1
        while row < scene.lines.count, scene.isBlank(row) { row += 1 }
        if row < scene.lines.count, scene.indent(row) > 0 { state.line = row }
    }

    /// `*goto_random_scene`: one of the scenes of its block (those whose `*if` holds, each once in the game
    /// unless `*allow_reuse`), taken with the number drawn first, as scene.js's computeRandomSelection.
    func gotoRandomScene(_ data: String) throws(CSError) -> Step {
        let scene = try currentScene()
        let start = state.line
        let allowReuseAll = data.contains("allow_reuse")
        let random = CSRandom.next(&state.random)
        var candidates: [(name: String, reuse: Bool)] = []
        for row in try skipBlock() {
            var line = scene.lines[row].trimmingSpaces
            var reuse = allowReuseAll
            var selectable = true
            while line.hasPrefix("*") {
                if line.hasPrefix("*allow_reuse") {
                    reuse = true
                    line = String(line.dropFirst("*allow_reuse".count)).trimmingSpaces
                } else if line.hasPrefix("*if"), let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") {
                    selectable = try truth(try evaluate(String(line[line.index(after: open)..<close])))
                    line = String(line[line.index(after: close)...]).trimmingSpaces
                } else {
                    errorLine = row
                    throw CSError("invalid command: \(line)")
                }
            }
            if selectable, reuse || !state.randomScenesTaken.contains(line) { candidates.append((line, reuse)) }
        }
        guard !candidates.isEmpty else {
            if data.contains("allow_no_selection") { return .next }
            throw CSError("No selectable scenes")
        }
        let pick = candidates[min(candidates.count - 1, Int(random * Double(candidates.count)))]
        if !pick.reuse { state.randomScenesTaken.append(pick.name) }
        state.subscenes = []
        return try enter(pick.name, label: nil, params: [], from: (state.scene, start))
    }
}
