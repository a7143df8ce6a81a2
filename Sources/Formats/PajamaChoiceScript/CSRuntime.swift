/// A ChoiceScript interpreter with the semantics of ChoiceScript's own (scene.js, docs/choicescript.md): it
/// runs a game's lines from one stop to the next (a choice, the end, an error) and says what it printed.
/// Its whole state is `state` (a value): set it to go back to a saved moment.
///
/// Not thread-safe: owned by one beat maker.
public final class CSRuntime {
    public let game: CSGame
    public var state: CSState
    /// What ChoiceScript's randomtest types at `*input_text` (and Pajama's test runs, docs/choicescript.md).
    public static let randomtestText = "blah blah"
    /// Most lines one move may run: a game that loops without stopping is stopped with a message.
    static let lineBudget = 2_000_000

    var output: [CSOutput] = []
    var paragraphParts: [String] = []
    /// The line numbers of error messages: the line being run (0-based).
    var errorLine = 0
    /// The lines the last run (of `start`, `choose` or `answer`) went through, in order, a line as often as it
    /// ran: those the loop ran and the option lines of the choice it stopped at (`pajama test`'s coverage).
    public internal(set) var linesRun: [CSLine] = []

    public init(game: CSGame, seed: Int) {
        self.game = game
        state = CSState(seed: seed)
    }

    /// Starts the game from startup.txt's first line.
    public func start() -> CSMoment {
        let seed = state.random
        state = CSState(seed: 0)
        state.random = seed
        return run()
    }

    public func reseed(_ seed: Int) { state.random = CSRandom.State(seed: seed) }

    /// The options of the choice the game waits at (nil when it waits at none).
    public var pendingCount: Int? { state.pending?.count }

    public enum ChoiceProblem: Error, Equatable { case noChoice, outOfRange, notSelectable }

    /// Takes option `index` (0-based) of the choice the game waits at, and runs to the next stop. Taking it
    /// spends one random number, as randomtest's pick of the option does (`Math.random()` in its
    /// `chooseIndex`), so that a path of randomtest replayed with the same seed draws the same numbers.
    public func choose(_ index: Int) throws(ChoiceProblem) -> CSMoment {
        guard let pending = state.pending else { throw .noChoice }
        guard pending.indices.contains(index) else { throw .outOfRange }
        let option = pending[index]
        guard option.selectable else { throw .notSelectable }
        state.pending = nil
        _ = CSRandom.next(&state.random)
        state.line = option.line
        state.indent = scene.map { indentOfNextNonBlank(from: option.line, in: $0) } ?? 0
        if let reuse = option.reuse, reuse != "allow", !state.temps.used.contains(option.line - 1) {
            state.temps.used.append(option.line - 1)
            state.temps.used.sort()
        }
        state.screenEmpty = true
        return run()
    }

    public enum AnswerProblem: Error, Equatable { case noQuestion, refused(String) }

    /// Answers the `*input_text` or `*input_number` the game waits at with `text` (spaces trimmed), and runs
    /// to the next stop. As randomtest does, an `*input_number` whose bounds differ and an `*input_text
    /// allow_blank` spend one random number (randomtest draws its answer there), so a path of randomtest
    /// replayed with its answers draws the same numbers after them.
    public func answer(_ text: String) throws(AnswerProblem) -> CSMoment {
        guard let question = state.question else { throw .noQuestion }
        let typed = text.trimmingWhitespace
        let value: CSValue
        switch question.kind {
        case .text(let allowsBlank):
            if typed.isEmpty, !allowsBlank { throw .refused("Please type something.") }
            if allowsBlank { _ = CSRandom.next(&state.random) }
            value = .string(typed.replacing("\n", with: "[n/]"))
        case .number(let minimum, let maximum, let whole):
            guard let number = CSValue.parseFloat(typed), !typed.isEmpty else { throw .refused("Please type in a number.") }
            if whole, number != number.rounded(.towardZero) { throw .refused("Please type in an integer number.") }
            if number < minimum { throw .refused("Please use a number greater than or equal to \(CSValue.format(minimum))") }
            if number > maximum { throw .refused("Please use a number less than or equal to \(CSValue.format(maximum))") }
            if maximum > minimum { _ = CSRandom.next(&state.random) }
            value = .number(number)
        }
        state.question = nil
        do throws(CSError) {
            try setVariable(question.variable, value)
        } catch {
            return CSMoment(scene: state.scene, output: [], stop: .error("\(state.scene) line \(state.line + 1): \(error.message)"))
        }
        state.line += 1
        state.screenEmpty = true
        return run()
    }

    /// The answer randomtest would type at the question the game waits at, drawn from a copy of the
    /// generator (nothing is spent): `*input_text` "blah blah" (with `allow_blank` blank one time in four),
    /// `*input_number` its `*rand` of the bounds. nil when the game waits at no question.
    public var randomtestAnswer: String? {
        guard let question = state.question else { return nil }
        var random = state.random
        switch question.kind {
        case .text(let allowsBlank):
            guard allowsBlank else { return Self.randomtestText }
            return (CSRandom.next(&random) * 4).rounded(.down) == 0 ? "" : Self.randomtestText
        case .number(let minimum, let maximum, let whole):
            guard maximum > minimum else { return CSValue.format(minimum) }
            let draw = CSRandom.next(&random)
            let value = whole ? minimum + (draw * (maximum - minimum + 1)).rounded(.down) : minimum + draw * (maximum - minimum)
            return CSValue.format(value)
        }
    }

    var scene: CSScene? { game.scene(named: state.scene) }

    // MARK: The loop (scene.js's printLoop)

    func run() -> CSMoment {
        output = []
        paragraphParts = []
        linesRun = []
        let stop: CSStop
        do throws(CSError) {
            stop = try loop()
        } catch {
            // As ChoiceScript: the paragraph being joined when a line fails is never shown.
            paragraphParts = []
            stop = .error("\(state.scene) line \(errorLine + 1): \(error.message)")
        }
        return CSMoment(scene: state.scene, output: output, stop: stop)
    }

    enum Step {
        /// Go on with the line after `state.line`.
        case next
        /// Go on at `state.line` itself (a new scene entered).
        case here
        case stop(CSStop)
    }

    private func loop() throws(CSError) -> CSStop {
        var budget = Self.lineBudget
        while true {
            budget -= 1
            guard budget > 0 else {
                errorLine = state.line
                throw CSError("the game ran \(Self.lineBudget) lines without stopping (an endless loop?)")
            }
            guard let scene else {
                errorLine = 0
                throw CSError("there is no scene \"\(state.scene)\" (no \(state.scene).txt in the scenes folder)")
            }
            if let problem = scene.problem {
                errorLine = problem.line
                throw CSError(problem.message)
            }
            errorLine = max(0, state.line)
            guard state.line < scene.lines.count else {
                switch try finish("") {
                case .stop(let stop): return stop
                case .next: state.line += 1
                case .here: break
                }
                continue
            }
            if let end = state.temps.choiceEnds[String(state.line)] {
                if end == 0 {
                    throw CSError("It is illegal to fall out of a *choice statement; you must *goto or *finish before the end of the indented block.")
                }
                state.line = end + 1
                continue
            }
            if scene.isBlank(state.line) {
                paragraph()
                state.line += 1
                continue
            }
            let line = scene.lines[state.line]
            let indent = scene.indent(state.line)
            if indent > state.indent {
                if let (command, _) = CSScene.command(in: line), command == "comment" {
                    state.line += 1
                    continue
                }
                throw CSError("increasing indent not allowed, expected \(state.indent) was \(indent)")
            }
            state.indent = indent
            if line.utf8.dropFirst(indent).first == UInt8(ascii: "#") {
                throw CSError("It is illegal to fall out of a *choice statement; you must *goto or *finish before the end of the indented block.")
            }
            linesRun.append(CSLine(scene: scene.name, line: state.line))
            if let (command, data) = CSScene.command(in: line) {
                switch try run(command, data) {
                case .next: state.line += 1
                case .here: break
                case .stop(let stop): return stop
                }
            } else {
                state.screenEmpty = false
                state.initialCommands = false
                try printLine(line)
                state.line += 1
            }
        }
    }

    // MARK: Lines

    func indentOfNextNonBlank(from line: Int, in scene: CSScene) -> Int {
        var index = line
        while index < scene.lines.count, scene.isBlank(index) { index += 1 }
        return index < scene.lines.count ? scene.indent(index) : 0
    }

    /// The last non-blank line before `state.line` (-1 when none).
    func previousNonBlankLine(in scene: CSScene) -> Int {
        var index = state.line - 1
        while index >= 0, index < scene.lines.count, scene.isBlank(index) { index -= 1 }
        return index
    }

    func currentScene() throws(CSError) -> CSScene {
        guard let scene else { throw CSError("there is no scene \"\(state.scene)\"") }
        return scene
    }

    // MARK: Flow

    /// `*goto label`.
    func goto(_ data: String) throws(CSError) {
        let scene = try currentScene()
        let label: String
        if data.contains("[") || data.contains("{") {
            var stream = CSTokenStream(try CSToken.tokenize(data))
            label = try reference(&stream)
        } else {
            label = data.lowercased()
        }
        guard let line = scene.labels[label] else { throw CSError("bad label \(label)") }
        state.line = line
        state.indent = scene.indent(line)
        if let limit = state.temps.looplimit {
            let key = String(line)
            let count = (state.temps.coverage[key] ?? 0) + 1
            state.temps.coverage[key] = count
            if count > limit { throw CSError("visited this line too many times (\(limit))") }
        }
    }

    /// Enters scene `name` at its start or at `label`, with fresh temporaries (and `params`).
    func enter(_ name: String, label: String?, params: [CSValue], from origin: (scene: String, line: Int)) throws(CSError) -> Step {
        guard let target = game.scene(named: name) else { throw CSError("there is no scene \"\(name)\" (no \(name).txt in the scenes folder)") }
        if target.name == state.scene {
            if let label { try goto(label) } else { state.line = -1 }
            state.temps = CSTemps()
            state.temps.params = params
            state.initialCommands = true
            return .next
        }
        var line = 0
        if let label {
            guard let labelLine = target.labels[label.lowercased()] else {
                throw CSError("\(target.name) doesn't contain label \(label.lowercased())")
            }
            line = labelLine
        }
        state.scene = target.name
        state.line = line
        state.indent = target.indent(line)
        state.temps = CSTemps()
        state.temps.params = params
        state.initialCommands = true
        return .here
    }

    /// `*finish`: the next scene of the scene list (a page turn when the page has text), or the end after the last.
    func finish(_ button: String) throws(CSError) -> Step {
        paragraph()
        guard let next = game.scene(after: state.scene) else { return .stop(.ending) }
        if !state.screenEmpty {
            output.append(.pageBreak(try replaceVariables(button.isEmpty ? "Next Chapter" : button)))
            state.screenEmpty = true
        }
        return try enter(next, label: nil, params: [], from: (state.scene, state.line))
    }

    /// `*goto_scene` / `*gosub_scene` data: the scene, its label, its arguments (scene.js's parseGotoScene).
    func parseGotoScene(_ data: String) throws(CSError) -> (scene: String, label: String?, params: [CSValue]) {
        if data.contains("[") || data.contains("{") {
            var stream = CSTokenStream(try CSToken.tokenize(data))
            let scene = try reference(&stream, lowercased: false)
            var label: String?
            if !stream.isEmpty { label = try reference(&stream) }
            var params: [CSValue] = []
            while let token = stream.next() { params.append(try valueToken(token, &stream)) }
            return (scene, label, params)
        }
        let words = data.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if words.count >= 2 {
            var params: [CSValue] = []
            if words.count == 3 {
                var stream = CSTokenStream(try CSToken.tokenize(String(words[2])))
                while let token = stream.next() { params.append(try valueToken(token, &stream)) }
            }
            return (String(words[0]), String(words[1]), params)
        }
        guard !data.isEmpty else { throw CSError("missing scene name") }
        return (data, nil, [])
    }

    /// `*if` (also for an `*elseif` reached by skipping): a true condition goes on into its block, a false one
    /// skips it.
    func ifCommand(_ data: String) throws(CSError) {
        let scene = try currentScene()
        if try truth(try evaluate(data)) {
            state.indent = indentOfNextNonBlank(from: state.line + 1, in: scene)
        } else {
            try skipBranch(inElse: false)
        }
    }

    /// scene.js's skipTrueBranch: past the indented block after `state.line`, into an `*else` or `*elseif` that
    /// follows it (unless `inElse`: the branch taken already).
    func skipBranch(inElse: Bool) throws(CSError) {
        let scene = try currentScene()
        let startIndent = state.indent
        var nextIndent: Int?
        while true {
            state.line += 1
            errorLine = state.line
            guard state.line < scene.lines.count else { return }
            if scene.isBlank(state.line) { continue }
            let indent = scene.indent(state.line)
            if nextIndent == nil {
                if indent <= startIndent { throw CSError("invalid indent, expected at least one line in 'if' true block") }
                nextIndent = indent
            }
            if indent <= startIndent {
                let parsed = indent == startIndent ? CSScene.command(in: scene.lines[state.line]) : nil
                guard let (command, data) = parsed, !inElse else {
                    state.line = previousNonBlankLine(in: scene)
                    state.indent = indent
                    return
                }
                if command == "else" || command == "elseif" || command == "elsif" { linesRun.append(CSLine(scene: scene.name, line: state.line)) }
                switch command {
                case "else":
                    if !data.isEmpty {
                        if data.hasPrefix("if") { throw CSError("'else if' is invalid, use 'elseif'") }
                        throw CSError("nothing should appear on a line after 'else': \(data)")
                    }
                    state.indent = indentOfNextNonBlank(from: state.line + 1, in: scene)
                case "elseif", "elsif":
                    try ifCommand(data)
                case "comment":
                    continue
                default:
                    state.line = previousNonBlankLine(in: scene)
                    state.indent = indentOfNextNonBlank(from: state.line + 1, in: scene)
                }
                return
            }
            if let nextIndent, indent < nextIndent { throw CSError("invalid indent, expected \(nextIndent), was \(indent)") }
        }
    }

    /// Past the indented block after `state.line` (a `*scene_list`, a `*stat_chart`...): `state.line` is its last line.
    func skipBlock() throws(CSError) -> [Int] {
        let scene = try currentScene()
        let startIndent = state.indent
        var rows: [Int] = []
        var row = state.line + 1
        while row < scene.lines.count {
            if scene.isBlank(row) { row += 1; continue }
            guard scene.indent(row) > startIndent else { break }
            rows.append(row)
            row += 1
        }
        if let last = rows.last { state.line = last }
        return rows
    }
}
