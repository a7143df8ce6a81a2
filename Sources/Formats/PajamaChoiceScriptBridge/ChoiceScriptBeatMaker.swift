import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaChoiceScript
import PajamaLoading
import PajamaModel
import PajamaJSON
import PajamaPaging
import PajamaStoryFormat

/// Makes the beats of a ChoiceScript game as they are read (docs/choicescript.md, "How"): a beat is what the
/// game prints from one stop to the next (a choice, its end, an error), paged by PajamaPaging (`*page_break`
/// and `*finish` turn the page); its choices are the choice's options. Ids are chained hashes as the Twine
/// bridge's: the start is `start`, the beat after option `s` of beat `p` is `c-` + 16 hex digits of FNV-1a of
/// `p:s`, so the same game, seed and choices give the same ids everywhere. The interpreter's state at the
/// end of the last `statesKept` beats is kept (a value); a beat whose parent's state is gone is made by
/// replaying its choices from the start.
///
/// Not thread-safe: owned by one `ChoiceScriptStorySource` (an actor).
final class ChoiceScriptBeatMaker {
    static let startBeatId = "start"
    static let statesKept = 64
    /// Largest state saved with a beat's origin (a larger one is replayed on resume instead).
    static let maximumSavedState = 256 * 1024

    let game: CSGame
    let title: String
    let version: String
    private(set) var seed: Int
    private let runtime: CSRuntime

    private struct Node {
        var parent: String?
        var step: Int
        /// The typed answer that leads here (`step` is `BeatOrigin.answered`).
        var answer: String?
        /// The state before the choice that leads here (its parent's end), when it came from saved progress.
        var startState: CSState?
    }

    private var nodes: [String: Node] = [ChoiceScriptBeatMaker.startBeatId: Node(parent: nil, step: 0)]
    private var endStates = LRUCache<String, CSState>(countLimit: ChoiceScriptBeatMaker.statesKept)
    /// The beat that asks each question handed out, by its answers' prefix (`Question.answerBeatPrefix`).
    private var questionBeats: [String: String] = [:]
    /// The lines each of the last beats made went through (`pajama test`'s coverage), by beat id.
    private var linesOfBeat = LRUCache<String, [CSLine]>(countLimit: ChoiceScriptBeatMaker.statesKept)
    /// Every line a reading can go through, by name (`CSGame.countedLines`).
    private(set) lazy var countedLines: [String] = game.countedLines.map(\.name)
    private lazy var counted: Set<CSLine> = Set(game.countedLines)

    init(game: CSGame, title: String, version: String, seed: Int) {
        self.game = game
        runtime = CSRuntime(game: game, seed: seed)
        self.title = title
        self.version = version
        self.seed = seed
    }

    private static let encoder = JSONValueEncoder.sorted

    static func childId(of parent: String, step: Int) -> String {
        let hex = String(FNV1a.hash("\(parent):\(step)"), radix: 16)
        return "c-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func steps(to id: String) -> (steps: [Int], answers: [String]) {
        var steps: [Int] = []
        var answers: [String] = []
        var cursor = id
        while let node = nodes[cursor], let parent = node.parent {
            steps.append(node.step)
            if let answer = node.answer { answers.append(answer) }
            cursor = parent
        }
        return (steps.reversed(), answers.reversed())
    }

    /// The node of an answer's beat (`Question.beatId(answering:)`) to a question this maker asked, made known.
    private func knowAnswerBeat(_ id: String) {
        guard nodes[id] == nil, let (prefix, answer) = Question.answer(inBeatId: id), let asker = questionBeats[prefix] else { return }
        nodes[id] = Node(parent: asker, step: BeatOrigin.answered, answer: answer)
    }

    // MARK: Making beats

    /// The beat `id`, nil for an id this maker never handed out.
    func beat(_ id: String) -> Beat? {
        knowAnswerBeat(id)
        guard let (moment, before) = moment(id) else { return nil }
        // The last run was this beat's: the runtime holds the state it stopped in, and the lines it ran.
        _ = linesOfBeat.insert(runtime.linesRun, for: id, cost: 1)
        return makeBeat(id, moment, before: before, achieved: runtime.state.achieved)
    }

    /// The names of the counted lines beat `id` went through, each once (run again when no longer kept).
    func linesReached(by id: String) -> [String] {
        knowAnswerBeat(id)
        if !linesOfBeat.contains(id) {
            guard moment(id) != nil else { return [] }
            _ = linesOfBeat.insert(runtime.linesRun, for: id, cost: 1)
        }
        var seen: Set<CSLine> = []
        return (linesOfBeat.value(for: id) ?? []).filter { counted.contains($0) && seen.insert($0).inserted }.map(\.name)
    }

    /// The stats screen (`choicescript_stats.txt`) as the reading stands where beat `id` stops; nil for a game
    /// without one, or an id this maker never handed out.
    func statusPage(at id: String) -> StatusPage? {
        knowAnswerBeat(id)
        guard game.scene(named: CSRuntime.statsScene) != nil, moment(id) != nil, let screen = runtime.statsScreen() else { return nil }
        return ChoiceScriptStatus.page(screen)
    }

    /// Beat `id` run (its chain from the nearest state known), with the state before its choice; the runtime
    /// is left in the state the beat stopped in. nil for an id this maker never handed out.
    private func moment(_ id: String) -> (CSMoment, CSState?)? {
        guard nodes[id] != nil else { return nil }
        var chain = [id]
        while let node = nodes[chain[chain.count - 1]], let parent = node.parent, node.startState == nil, !endStates.contains(parent) {
            chain.append(parent)
        }
        var made: (CSMoment, CSState?)?
        for beatId in chain.reversed() { made = run(beatId) }
        return made
    }

    /// The moment of beat `id` run (its parent's end state kept, or its own start state known), with the
    /// state before its choice (nil for the start).
    private func run(_ id: String) -> (CSMoment, CSState?) {
        let node = nodes[id]!
        let moment: CSMoment
        var before: CSState?
        if let parent = node.parent {
            guard let state = node.startState ?? endStates.value(for: parent) else {
                return (CSMoment(scene: "", output: [], stop: .error("the state before beat \(id) is gone")), nil)
            }
            before = state
            runtime.state = state
            if let answer = node.answer {
                do {
                    moment = try runtime.answer(answer)
                } catch {
                    let reason = switch error {
                    case .noQuestion: "the answer \"\(answer)\" has no question to answer"
                    case .refused(let why): "the answer \"\(answer)\" is not taken: \(why)"
                    }
                    return (CSMoment(scene: state.scene, output: [], stop: .error(reason)), before)
                }
                remember(moment, of: id)
                return (moment, before)
            }
            do {
                moment = try runtime.choose(node.step)
            } catch {
                let reason = error == .notSelectable ? "option \(node.step + 1) cannot be taken now" : "option \(node.step + 1) is not offered there"
                return (CSMoment(scene: state.scene, output: [], stop: .error(reason)), before)
            }
        } else {
            runtime.reseed(seed)
            moment = runtime.start()
        }
        remember(moment, of: id)
        return (moment, before)
    }

    /// Notes the beats that follow beat `id`, which stopped at `moment` (the runtime in its end state).
    private func remember(_ moment: CSMoment, of id: String) {
        switch moment.stop {
        case .choice(let options):
            for index in options.indices {
                let child = Self.childId(of: id, step: index)
                if nodes[child] == nil { nodes[child] = Node(parent: id, step: index) }
            }
            _ = endStates.insert(runtime.state, for: id, cost: 1)
        case .input:
            questionBeats[Question.answerBeatPrefix(askedIn: id)] = id
            _ = endStates.insert(runtime.state, for: id, cost: 1)
        case .ending, .error:
            break
        }
    }

    /// The beat of `moment`; an ending's last page says which achievements `achieved` holds (the end screen
    /// shows that page), as ChoiceScript's achievements screen does.
    private func makeBeat(_ id: String, _ moment: CSMoment, before: CSState?, achieved: [String]) -> Beat {
        var choices: [Choice] = []
        var choiceMarks: [LineMarks] = []
        if case .choice(let options) = moment.stop {
            for (index, option) in options.enumerated() {
                let parsed = PageMarkup.parse(Self.markup(option.text))
                var marks = parsed.marks(line: index) ?? LineMarks(line: index)
                if !option.selectable {
                    // Shown with its number, dimmed; taking it shows this beat again (docs/choicescript.md).
                    marks.spans.append(TextSpan(from: 0, to: parsed.text.count, attributes: .dim))
                }
                if !marks.isEmpty { choiceMarks.append(marks) }
                choices.append(Choice(text: parsed.text, targetBeatId: option.selectable ? Self.childId(of: id, step: index) : id))
            }
        }
        var lines = Self.lines(moment)
        if moment.stop == .ending, let report = game.achievementReport(achieved: achieved) {
            lines += Self.achievementLines(report, scene: moment.scene)
        }
        var question: Question?
        if case .input(let asked) = moment.stop {
            let kind: Question.Kind = switch asked.kind {
            case .text(let allowsBlank): .text(allowsBlank: allowsBlank)
            case .number(let minimum, let maximum, let whole): .number(minimum: minimum, maximum: maximum, wholeNumbers: whole)
            }
            question = Question(kind: kind, answerBeatPrefix: Question.answerBeatPrefix(askedIn: id), testAnswer: runtime.randomtestAnswer)
        }
        var pages = (try? Pager.pages(for: lines, choices: choices, choiceMarks: choiceMarks, question: question, scene: PageScene(), saysLoop: false)) ?? []
        var stopped: String?
        if case .error(let message) = moment.stop {
            stopped = message
            pages.append(Page(id: "error", kind: .text(lines: ["The game stopped: \(message)"])))
        } else if pages.isEmpty {
            pages.append(Page(id: "p1", kind: .text(lines: ["The end."])))
        }
        if id == Self.startBeatId {
            pages.insert(Page(id: "title", kind: .title(title: title, subtitle: game.author.map { "by " + $0 })), at: 0)
        }
        var state: String?
        if let before, let json = try? Self.encoder.encode(before), json.count <= Self.maximumSavedState {
            state = String(decoding: json, as: UTF8.self)
        }
        let (steps, answers) = steps(to: id)
        let origin = BeatOrigin(seed: seed, steps: steps, state: state, version: version, stopped: stopped, answers: answers)
        return Beat(id: id, pages: pages, origin: origin)
    }

    /// The moment's output as the pager's lines: a paragraph a line (`[n/]` a break in it), a picture or sound
    /// tagged on the line that follows it, a page turn a `page` tag on the next line.
    static func lines(_ moment: CSMoment) -> [Pager.Line] {
        var lines: [Pager.Line] = []
        var pending: [String] = []
        for item in moment.output {
            switch item {
            case .paragraph(let text):
                // Spaces run together as a browser shows them (a line's trailing spaces, a doubled space).
                let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                guard !trimmed.isEmpty else { continue }
                lines.append(Pager.Line(text: markup(trimmed), tags: pending, place: moment.scene))
                pending = []
            case .image(let path, let alt):
                guard (try? AssetPath(validating: path)) != nil else { continue }
                pending.append("image: \(path)")
                if let alt { pending.append("alt: \(alt)") }
            case .sound(let path):
                if (try? AssetPath(validating: path)) != nil { pending.append("sound: \(path)") }
            case .pageBreak:
                // A picture before the page turn belongs to the page it ends (with its last paragraph).
                if !pending.isEmpty, !pending.contains("page"), let last = lines.indices.last,
                    !lines[last].tags.contains(where: { $0.hasPrefix("image:") }) {
                    lines[last].tags += pending
                    pending = []
                }
                if !lines.isEmpty || !pending.isEmpty, !pending.contains("page") { pending.append("page") }
            case .achievement(let title, let description):
                lines.append(Pager.Line(text: "<b>Achievement: \(escape(title))</b> \(markup(description))", tags: pending, place: moment.scene))
                pending = []
            case .statChart(let rows):
                for text in StatusPage(title: "", rows: rows.map(ChoiceScriptStatus.row)).lines(barWidth: 0) {
                    lines.append(Pager.Line(text: escape(text), tags: pending, place: moment.scene))
                    pending = []
                }
            case .notice(let text):
                lines.append(Pager.Line(text: "<i>\(escape(text))</i>", tags: pending, place: moment.scene))
                pending = []
            }
        }
        pending.removeAll { $0 == "page" }
        if !pending.isEmpty { lines.append(Pager.Line(text: "", tags: pending, place: moment.scene)) }
        return lines
    }

    /// The achievements report as the pager's lines: a heading, then its paragraphs, on the page it ends.
    static func achievementLines(_ report: [String], scene: String) -> [Pager.Line] {
        [Pager.Line(text: "<b>\(achievementsHeading)</b>", tags: [], place: scene)]
            + report.map { Pager.Line(text: markup($0), tags: [], place: scene) }
    }

    /// The heading of an ending's achievements (the differential script knows it: scripts/choicescript-randomtest.py).
    static let achievementsHeading = "Achievements"

    static func escape(_ text: String) -> String {
        guard text.contains("&") || text.contains("<") || text.contains(">") else { return text }
        return text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    /// ChoiceScript's markup as the pager's, as its own page does (ui.js's replaceBbCode, case-sensitive):
    /// `[b]` `[i]` as `<b>` `<i>`, `[n/]` a line break, `[c/]` nothing, a link `[url=...]words[/url]` its words
    /// underlined.
    static func markup(_ text: String) -> String {
        var result = escape(text)
        guard result.contains("[") else { return result }
        for (from, to) in [("[b]", "<b>"), ("[/b]", "</b>"), ("[i]", "<i>"), ("[/i]", "</i>"), ("[n/]", "<br>"), ("[c/]", ""), ("[/url]", "</u>")] {
            result = result.replacing(from, with: to)
        }
        while let open = result.firstRange(of: "[url="), let close = result[open.upperBound...].firstIndex(of: "]") {
            result.replaceSubrange(open.lowerBound...close, with: "<u>")
        }
        return result
    }

    // MARK: Resuming

    /// Makes the beat `origin` leads to known again: from its saved state (the state before its last choice)
    /// when it belongs to this version of the game, else by replaying its choices from the start.
    func restore(_ origin: BeatOrigin) -> OriginRestore {
        let seedChanged = origin.seed != seed
        if seedChanged {
            seed = origin.seed
            _ = endStates.removeAll()
        }
        var id = Self.startBeatId
        var chain = [id]
        for move in origin.moves {
            let child: String
            switch move {
            case .choice(let step):
                child = Self.childId(of: id, step: step)
                if nodes[child] == nil { nodes[child] = Node(parent: id, step: step) }
            case .answer(let answer):
                let prefix = Question.answerBeatPrefix(askedIn: id)
                questionBeats[prefix] = id
                child = Question(kind: .text(allowsBlank: true), answerBeatPrefix: prefix).beatId(answering: answer)
                if nodes[child] == nil { nodes[child] = Node(parent: id, step: BeatOrigin.answered, answer: answer) }
            }
            id = child
            chain.append(id)
        }
        if let json = origin.state, origin.version == version, let state = try? JSONValueDecoder().decode(CSState.self, from: json) {
            if nodes[id]?.startState == state, !seedChanged { return .restored }
            nodes[id]?.startState = state
            _ = endStates.removeAll()
            return .restoredAnew
        }
        if origin.state == nil, origin.version == version { return seedChanged ? .restoredAnew : .restored }
        for (position, move) in origin.moves.enumerated() {
            let (moment, _) = run(chain[position])
            if case .error(let message) = moment.stop { return .failed(Self.replayFailure(position, message)) }
            switch (move, moment.stop) {
            case (.choice(let step), .choice(let options)) where options.indices.contains(step): continue
            case (.answer, .input): continue
            case (.choice(let step), _): return .failed(Self.replayFailure(position, "option \(step + 1) is no longer offered"))
            case (.answer, _): return .failed(Self.replayFailure(position, "no typed answer is asked for there any more"))
            }
        }
        return seedChanged ? .restoredAnew : .restored
    }

    private static func replayFailure(_ position: Int, _ reason: String) -> String {
        "the saved place in this game could not be found again (at move \(position + 1): \(reason)); reading from the start"
    }
}
