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
