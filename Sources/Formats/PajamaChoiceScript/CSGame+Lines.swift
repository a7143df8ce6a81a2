/// One line of a game: its scene (the file's name) and its 0-based index, as `pajama test` counts a game's
/// coverage (docs/testing.md: "lines", each named `scene line N`, 1-based as ChoiceScript's messages are).
public struct CSLine: Hashable, Sendable {
    public var scene: String
    public var line: Int

    public init(scene: String, line: Int) {
        self.scene = scene
        self.line = line
    }

    /// `startup line 12`.
    public var name: String { "\(scene) line \(line + 1)" }
}

extension CSGame {
    /// Commands whose indented lines are data the command reads, never lines a reading goes through.
    static let dataBlockCommands: Set<String> = ["scene_list", "stat_chart", "achievement"]
    /// Lines that say nothing and are never stopped at: their being reached says nothing about the story.
    static let uncountedCommands: Set<String> = ["comment", "label"]

    /// Every line a reading can go through: each scene's lines that are not blank, not a `*comment` or a
    /// `*label`, and not inside a `*scene_list`, `*stat_chart` or `*achievement`'s indented data. In the
    /// scene list's order, then the other scenes by name; each scene's lines in order.
    public var countedLines: [CSLine] {
        let listed = sceneList.compactMap { scene(named: $0)?.name }
        let order = listed + scenes.keys.filter { !listed.contains($0) }.sorted()
        var seen: Set<String> = []
        var lines: [CSLine] = []
        for name in order where seen.insert(name).inserted {
            guard let scene = scenes[name] else { continue }
            var dataIndent: Int?
            for index in scene.lines.indices where !scene.isBlank(index) {
                let indent = scene.indent(index)
                if let open = dataIndent {
                    if indent > open { continue }
                    dataIndent = nil
                }
                if let (command, _) = CSScene.command(in: scene.lines[index]) {
                    if Self.dataBlockCommands.contains(command) { dataIndent = indent }
                    if Self.uncountedCommands.contains(command) { continue }
                }
                lines.append(CSLine(scene: name, line: index))
            }
        }
        return lines
    }
}

extension CSGame {
    /// An option no run was offered, and the condition that kept it back.
    public struct NeverOffered: Equatable, Sendable {
        public var text: String
        public var line: CSLine
        public var reason: String
    }

    /// The options whose choice was reached (the line of its `*choice` in `reached`) but which no run was
    /// offered, where a condition says why: the option's own `*if (...)`, or the `*if`, `*elseif` or `*else`
    /// it is under, run (in `reached`) but never true or never taken. `reached` holds `CSLine.name`s.
    public func neverOffered(reached: Set<String>) -> [NeverOffered] {
        var found: [NeverOffered] = []
        for line in countedLines where !reached.contains(line.name) {
            guard let scene = scenes[line.scene], let (text, condition) = Self.option(scene.lines[line.line]) else { continue }
            // Up the indentation: the conditions it is under, to its choice.
            var enclosing: [(line: Int, command: String, data: String)] = []
            var indent = scene.indent(line.line)
            var index = line.line
            while index > 0, indent > 0 {
                index -= 1
                guard !scene.isBlank(index), scene.indent(index) < indent else { continue }
                indent = scene.indent(index)
                guard let (command, data) = CSScene.command(in: scene.lines[index]) else { break }
                enclosing.append((index, command, data))
                if command == "choice" || command == "fake_choice" { break }
            }
            guard let choice = enclosing.last, choice.command == "choice" || choice.command == "fake_choice",
                  reached.contains(CSLine(scene: line.scene, line: choice.line).name) else { continue }
            let reason: String
            if let condition {
                reason = "its *if \(condition) was never true"
            } else if let under = enclosing.first(where: { ["if", "elseif", "elsif", "else"].contains($0.command) }),
                      reached.contains(CSLine(scene: line.scene, line: under.line).name) {
                let at = CSLine(scene: line.scene, line: under.line).name
                reason = under.command == "else" ? "the *else it is under (\(at)) was never taken"
                    : "the *\(under.command) \(under.data) it is under (\(at)) was never true"
            } else {
                continue
            }
            found.append(NeverOffered(text: text, line: line, reason: reason))
        }
        return found
    }

    /// An option line's text, and the condition of its own `*if (...)` if it has one: `#text`, or `#text`
    /// after `*if (...)`, `*selectable_if (...)` and the reuse modifiers. nil for any other line.
    static func option(_ line: String) -> (text: String, condition: String?)? {
        var rest = line.trimmingSpaces
        var condition: String?
        while let (command, data) = CSScene.command(in: rest) {
            switch command {
            case "hide_reuse", "disable_reuse", "allow_reuse":
                rest = data
            case "if", "selectable_if":
                guard let open = data.firstIndex(of: "("), let close = CSRuntime.matchingParenthesis(in: data, from: open) else { return nil }
                if command == "if" { condition = String(data[open...close]) }
                rest = String(data[data.index(after: close)...]).trimmingSpaces
            default:
                return nil
            }
        }
        guard rest.hasPrefix("#") else { return nil }
        return (String(rest.dropFirst()).trimmingSpaces, condition)
    }
}
