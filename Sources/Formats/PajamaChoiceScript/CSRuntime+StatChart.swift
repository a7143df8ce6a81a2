import PajamaBasics

/// One row of a `*stat_chart`, its label and value as the chart shows them (variables replaced).
public enum CSStatRow: Equatable, Sendable {
    /// `text VAR Label`: "Label: value" (an empty label and value: an empty line).
    case text(label: String, value: CSValue)
    /// `percent VAR Label`: "Label: value%", a bar as full as the value.
    case percent(label: String, value: CSValue)
    /// `opposed_pair VAR` with its two labels: "Label: value%" and "Opposite: (100 - value)%" on one bar.
    case opposedPair(label: String, opposite: String, value: CSValue)
}

extension CSRuntime {
    /// The name of the stats screen's scene.
    public static let statsScene = "choicescript_stats"

    /// The stats screen as the game stands now: `choicescript_stats.txt` run from its start with the game's
    /// variables and fresh temporaries, to its end or its first stop, as ChoiceScript's Show Stats does; the
    /// state is left as it was (what the screen sets is forgotten, as ChoiceScript's return to the game
    /// forgets it). nil for a game without that scene.
    public func statsScreen() -> CSMoment? {
        guard game.scene(named: Self.statsScene) != nil else { return nil }
        let saved = state
        defer { state = saved }
        state.scene = Self.statsScene
        state.line = 0
        state.indent = 0
        state.temps = CSTemps()
        state.subscenes = []
        state.pending = nil
        state.screenEmpty = true
        state.initialCommands = false
        return run()
    }

    /// `*stat_chart`: its rows (scene.js's parseStatChart), each value evaluated and each label's variables
    /// replaced as the chart is shown; `state.line` is left on the block's last line.
    func statChart() throws(CSError) {
        paragraph()
        let scene = try currentScene()
        let startIndent = state.indent
        var rowIndent: Int?
        var rows: [CSStatRow] = []
        var row = state.line
        func raw(_ index: Int) -> String? { index < scene.lines.count ? scene.lines[index] : nil }
        while true {
            row += 1
            guard row < scene.lines.count else { break }
            if scene.isBlank(row) { continue }
            errorLine = row
            let indent = scene.indent(row)
            if rowIndent == nil {
                guard indent > startIndent else { throw CSError("invalid indent, expected at least one row") }
                rowIndent = indent
            }
            guard indent > startIndent else {
                row = previousNonBlank(before: row, in: scene)
                break
            }
            guard indent == rowIndent else { throw CSError("invalid indent, expected \(rowIndent ?? 0), was \(indent)") }
            let line = scene.lines[row].trimmingSpaces
            let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard words.count == 2, ["text", "percent", "opposed_pair"].contains(words[0]) else {
                throw CSError("invalid line; this line should start with 'percent', 'text', or 'opposed_pair'")
            }
            let type = String(words[0]), data = String(words[1]).trimmingSpaces
            if type == "opposed_pair" {
                let value = try variable(data)
                row += 1
                errorLine = row
                let first = raw(row) ?? ""
                let firstIndent = scene.indent(row)
                guard firstIndent > indent else {
                    throw CSError("invalid indent; expected at least one indented line to indicate opposed pair name. indent: \(firstIndent), expected greater than \(indent)")
                }
                let secondIndent = row + 1 < scene.lines.count ? scene.indent(row + 1) : 0
                if secondIndent <= indent {
                    rows.append(.opposedPair(label: try replaceVariables(data), opposite: try replaceVariables(first.trimmingSpaces), value: value))
                    continue
                }
                row += 1
                errorLine = row
                let second = raw(row) ?? ""
                if secondIndent == firstIndent {
                    rows.append(.opposedPair(label: try replaceVariables(first.trimmingSpaces), opposite: try replaceVariables(second.trimmingSpaces), value: value))
                } else if secondIndent > firstIndent {
                    // The first label's definition, then the opposite label and its definition.
                    row += 1
                    errorLine = row
                    let third = raw(row) ?? ""
                    guard scene.indent(row) == firstIndent else {
                        throw CSError("invalid indent; this line should be the opposing label name. expected \(firstIndent) was \(scene.indent(row))")
                    }
                    row += 1
                    errorLine = row
                    guard scene.indent(row) == secondIndent else {
                        throw CSError("invalid indent; this line should be the opposing label definition. expected \(secondIndent) was \(scene.indent(row))")
                    }
                    rows.append(.opposedPair(label: try replaceVariables(first.trimmingSpaces), opposite: try replaceVariables(third.trimmingSpaces), value: value))
                } else {
                    throw CSError("invalid indent; expected a second line with indent \(firstIndent) to match line \(row), or else no more opposed_pair lines")
                }
                continue
            }
            let (expression, label) = try Self.statVariable(data)
            let value = try evaluate(expression)
            let shown = try replaceVariables(label)
            if row + 1 < scene.lines.count, scene.indent(row + 1) > indent { row += 1 }  // its definition, not shown
            rows.append(type == "text" ? .text(label: shown, value: value) : .percent(label: shown, value: value))
        }
        state.line = min(row, scene.lines.count - 1)
        output.append(.statChart(rows))
    }

    /// A `text` or `percent` row's variable (or parenthesised expression) and label (the variable when it has none).
    static func statVariable(_ data: String) throws(CSError) -> (String, String) {
        guard data.contains(" ") else { return (data, data) }
        guard data.hasPrefix("(") else {
            let parts = data.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), String(parts[1]))
        }
        var depth = 0
        for (offset, character) in data.dropFirst().enumerated() {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                if depth > 0 { depth -= 1; continue }
                let close = data.index(data.startIndex, offsetBy: offset + 1)
                let expression = String(data[data.index(after: data.startIndex)..<close])
                let label = String(data[data.index(after: close)...]).trimmingSpaces
                return (expression, label.isEmpty ? expression : label)
            }
        }
        throw CSError("missing closing parenthesis")
    }

    private func previousNonBlank(before row: Int, in scene: CSScene) -> Int {
        var index = row - 1
        while index > 0, scene.isBlank(index) { index -= 1 }
        return index
    }
}
