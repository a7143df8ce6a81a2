/// A check of a game without playing it, as ChoiceScript's quicktest reports (docs/choicescript.md,
/// "Validating"): every scene's lines read, and each problem named by scene and line.
public enum CSLint {
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var scene: String
        /// 1-based.
        public var line: Int
        public var message: String
        /// False for what the game still plays around (a `*script`, which is never run).
        public var isError: Bool

        public var description: String { "\(scene) line \(line): \(message)" }
    }

    public static func check(_ game: CSGame) -> [Problem] {
        var problems: [Problem] = []
        // The variables every scene may use: startup's *create, and ChoiceScript's own.
        var permanent: Set<String> = ["choice_title", "implicit_control_flow"]
        if let startup = game.scenes["startup"] {
            for line in startup.lines {
                guard let (command, data) = CSScene.command(in: line) else { continue }
                if command == "create" || command == "create_array" {
                    let (name, _) = CSRuntime.splitName(data)
                    permanent.insert(name.lowercased())
                    if command == "create_array" { permanent.insert(name.lowercased() + "_count") }
                }
            }
        }
        for name in game.scenes.keys.sorted() {
            problems += check(game.scenes[name]!, in: game, permanent: permanent)
        }
        return problems
    }

    private static func check(_ scene: CSScene, in game: CSGame, permanent: Set<String>) -> [Problem] {
        var problems: [Problem] = []
        func report(_ line: Int, _ message: String, error: Bool = true) {
            problems.append(Problem(scene: scene.name, line: line + 1, message: message, isError: error))
        }
        if let problem = scene.problem { report(problem.line, problem.message) }
        // Temporaries: every *temp, *params and *temp_array of the scene (ChoiceScript's quicktest follows the
        // flow; a name declared anywhere in the scene is taken as declared).
        var declared = permanent
        for line in scene.lines {
            guard let (command, data) = CSScene.command(in: line) else { continue }
            switch command {
            case "temp", "temp_array":
                let (name, _) = CSRuntime.splitName(data)
                declared.insert(name.lowercased())
                if command == "temp_array" { declared.insert(name.lowercased() + "_count") }
            case "params":
                var number = 1
                for word in data.split(separator: " ") {
                    declared.insert(word.lowercased())
                    declared.insert("param_\(number)")
                    number += 1
                }
                declared.insert("param_count")
            case "check_achievements":
                for achievement in game.achievements { declared.insert("choice_achieved_" + achievement.name) }
            case "check_purchase":
                for product in data.split(separator: " ") { declared.insert("choice_purchased_" + product.lowercased()) }
                declared.insert("choice_purchase_supported")
                declared.insert("choice_purchased_everything")
            default: break
            }
        }
        var seenSpace: Int?
        var seenTab: Int?
        for (index, line) in scene.lines.enumerated() {
            let indentation = line.utf8.prefix { $0 == 0x20 || $0 == 0x09 }
            // A blank line's whitespace is no indentation (ChoiceScript measures lines with text only).
            if scene.isBlank(index) {
            } else if indentation.contains(0x09), indentation.contains(0x20) {
                report(index, "Tabs and spaces appear on the same line")
            } else if indentation.contains(0x09) {
                if seenTab == nil { seenTab = index }
                if let seenSpace { report(index, "Illegal mixing of spaces and tabs; this line has a tab, but there were spaces on line \(seenSpace + 1)") }
            } else if indentation.contains(0x20) {
                if seenSpace == nil { seenSpace = index }
            }
            guard let (command, data) = CSScene.command(in: line) else { continue }
            // *selectable_if and *random_weight are an option's modifiers, not commands of their own.
            if !CSRuntime.commands.contains(command), command != "selectable_if", command != "random_weight" {
                report(index, "Non-existent command '\(command)'")
                continue
            }
            switch command {
            case "goto", "gosub":
                let label = (data.split(separator: " ").first.map(String.init) ?? "").lowercased()
                if label.isEmpty { report(index, "*\(command) needs a label"); break }
                if !label.contains("{"), !label.contains("["), scene.labels[label] == nil { report(index, "no label \"\(label)\"") }
            case "goto_scene", "gosub_scene":
                let words = data.split(separator: " ").map(String.init)
                guard let target = words.first, !target.contains("{"), !target.contains("[") else { break }
                guard let other = game.scene(named: target) else {
                    report(index, "no scene \"\(target)\" (no \(target).txt in the scenes folder)")
                    break
                }
                if words.count >= 2, !words[1].contains("{"), other.labels[words[1].lowercased()] == nil {
                    report(index, "scene \"\(target)\" has no label \"\(words[1].lowercased())\"")
                }
            case "script":
                report(index, "*script is never run by Pajama (the reader shows a notice in its place)", error: false)
            case "choice", "fake_choice":
                var next = index + 1
                while next < scene.lines.count, scene.isBlank(next) { next += 1 }
                if next >= scene.lines.count || scene.indent(next) <= scene.indent(index) {
                    report(index, "*\(command) has no options (expected indented #options after it)")
                }
            case "set", "rand", "input_text", "input_number":
                let (name, _) = CSRuntime.splitName(data)
                let key = name.lowercased()
                if !key.isEmpty, !declared.contains(key), !data.dropFirst(name.count).hasPrefix("[") {
                    report(index, "the variable \"\(key)\" is used before any *create or *temp")
                }
            default: break
            }
        }
        return problems
    }
}
