import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaPaging
import PajamaJSON
import PajamaStoryFormat
import PajamaSugarCube
import PajamaTwine

/// Makes the beats of a SugarCube story as they are read (docs/sugarcube.md, "Beats"), as the Twine bridge
/// makes Harlowe's: a beat is one moment of the SugarCube runtime (a passage entered, or the page a link's
/// body changed), paged by PajamaPaging's pager; its choices are the moment's links. Ids are chained hashes:
/// the start is `start`, the beat after link `s` of beat `p` is `s-` + 16 hex digits of FNV-1a of `p:s`, so the
/// same story, seed and links give the same ids everywhere. The runtime's state at the end of the last
/// `statesKept` beats is kept (a value); a beat whose parent's state is gone is made by replaying its links
/// from the start.
///
/// Not thread-safe: owned by one `SugarCubeStorySource` (an actor).
final class SugarCubeBeatMaker {
    static let startBeatId = "start"
    static let statesKept = 64
    /// Largest state saved with a beat's origin (a larger one is replayed on resume instead).
    static let maximumSavedState = 256 * 1024

    let story: TwineStory
    let file: String
    let title: String
    let version: String
    private(set) var seed: Int
    private let runtime: SugarCubeRuntime
    /// The story loops background sounds: every page says which (Pager's `saysLoop`).
    private let saysLoop: Bool

    private struct Node {
        var parent: String?
        var step: Int
        /// The typed answer that leads here (`step` is `BeatOrigin.answered`).
        var answer: String?
        /// The state before the link that leads here (its parent's end), when it came from saved progress.
        var startState: SugarCubeState?
    }

    private var nodes: [String: Node] = [SugarCubeBeatMaker.startBeatId: Node(parent: nil, step: 0)]
    private var endStates = LRUCache<String, SugarCubeState>(countLimit: SugarCubeBeatMaker.statesKept)
    /// The beat that asks each question handed out, by its answers' prefix (`Question.answerBeatPrefix`).
    private var questionBeats: [String: String] = [:]

    /// The Story JavaScript's errors, by passage.
    var scriptErrors: [(passage: String, message: String)] { runtime.scriptErrors }
    /// The macros the story defines in its JavaScript (`Macro.add`) and its widgets.
    var customMacros: Set<String> { runtime.customMacros }
    /// The errors the start passage met (shown in place).
    private(set) var startErrors: [String] = []

    init(story: TwineStory, file: String, title: String, version: String, seed: Int) {
        self.story = story
        runtime = SugarCubeRuntime(story: story, seed: seed)
        saysLoop = story.passages.contains { $0.text.containsBytes("loop") && ($0.text.containsBytes("<<audio") || $0.text.containsBytes("<audio")) }
        self.file = file
        self.title = title
        self.version = version
        self.seed = seed
    }

    /// Sorted keys: the same state is the same text (beats made again compare equal).
    private static let encoder = JSONValueEncoder.sorted

    static func childId(of parent: String, step: Int) -> String {
        let hex = String(FNV1a.hash("\(parent):\(step)"), radix: 16)
        return "s-" + String(repeating: "0", count: 16 - hex.count) + hex
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

    /// The question page of an input field asked in beat `id`: a line of text (blank taken, as an empty
    /// field is) or a number; the answer a test types is the field's default (what the variable holds when
    /// nothing is typed).
    static func question(_ input: SugarCubeInput, askedIn id: String) -> Question {
        let kind: Question.Kind = switch input.kind {
        case .text: .text(allowsBlank: true)
        case .number: .number(minimum: -numberBound, maximum: numberBound, wholeNumbers: false)
        }
        return Question(kind: kind, answerBeatPrefix: Question.answerBeatPrefix(askedIn: id), testAnswer: input.defaultValue)
    }

    /// A `<<numberbox>>` takes any number; the question page's bounds.
    static let numberBound = 1_000_000_000.0

    // MARK: Making beats

    /// The beat `id`, nil for an id this maker never handed out.
    func beat(_ id: String) -> Beat? {
        knowAnswerBeat(id)
        guard nodes[id] != nil else { return nil }
        var chain = [id]
        while let node = nodes[chain[chain.count - 1]], let parent = node.parent, node.startState == nil, !endStates.contains(parent) {
            chain.append(parent)
        }
        var made: (SugarCubeMoment, SugarCubeState?)?
        for beatId in chain.reversed() { made = run(beatId) }
        guard let (moment, before) = made else { return nil }
        return makeBeat(id, moment, before: before)
    }

    /// Runs the moment of beat `id` (its parent's end state kept, or its own start state known); returns it
    /// with the state before its link (nil for the start).
    private func run(_ id: String) -> (SugarCubeMoment, SugarCubeState?) {
        let node = nodes[id]!
        let moment: SugarCubeMoment
        var before: SugarCubeState?
        if let parent = node.parent {
            guard let state = node.startState ?? endStates.value(for: parent) else {
                return (SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: "the state before beat \(id) is gone"), nil)
            }
            before = state
            runtime.state = state
            if let answer = node.answer {
                guard let input = state.pendingInput else {
                    return (SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: "the answer \"\(answer)\" has no question to answer"), before)
                }
                if let problem = Self.question(input, askedIn: parent).problem(with: answer) {
                    return (SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: "the answer \"\(answer)\" is not taken: \(problem)"), before)
                }
                do {
                    moment = try runtime.answer(Question.normalized(answer))
                } catch {
                    let reason = switch error {
                    case .noQuestion: "the answer \"\(answer)\" has no question to answer"
                    case .refused(let why): "the answer \"\(answer)\" is not taken: \(why)"
                    }
                    return (SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: reason), before)
                }
            } else {
                do {
                    moment = try runtime.choose(node.step)
                } catch {
                    return (SugarCubeMoment(passage: "", lines: [], links: [], unsupported: [], errors: [], error: "link \(node.step + 1) is not offered there"), before)
                }
            }
        } else {
            moment = runtime.start()
            startErrors = moment.errors
        }
        if moment.error == nil, moment.question != nil {
            questionBeats[Question.answerBeatPrefix(askedIn: id)] = id
            _ = endStates.insert(runtime.state, for: id, cost: 1)
        } else if moment.error == nil, !moment.links.isEmpty {
            for index in moment.links.indices {
                let child = Self.childId(of: id, step: index)
                if nodes[child] == nil { nodes[child] = Node(parent: id, step: index) }
            }
            _ = endStates.insert(runtime.state, for: id, cost: 1)
        }
        return (moment, before)
    }

    /// The passages each beat made so far entered (`pajama test`'s coverage).
    private(set) var passagesOfBeat: [String: [String]] = [:]
    /// The `[[links]]` each beat made so far weighed, shown or kept back (`pajama test`'s choices never offered).
    private(set) var linksOfBeat: [String: [TwineWeighedLink]] = [:]

    /// The passages a reader may enter (`SugarCubeRuntime.readablePassages`).
    var readablePassages: [String] { runtime.readablePassages }

    private func makeBeat(_ id: String, _ moment: SugarCubeMoment, before: SugarCubeState?) -> Beat {
        passagesOfBeat[id] = moment.entered
        if !moment.weighed.isEmpty { linksOfBeat[id] = moment.weighed }
        var choices: [Choice] = []
        var choiceMarks: [LineMarks] = []
        if moment.error == nil {
            for (index, link) in moment.links.enumerated() {  // every link: the reader scrolls the list
                let parsed = PageMarkup.parse(link.label.isEmpty ? "(a link)" : link.label)
                if let marks = parsed.marks(line: index) { choiceMarks.append(marks) }
                choices.append(Choice(text: parsed.text, targetBeatId: Self.childId(of: id, step: index)))
            }
        }
        let lines = moment.lines.map { line -> Pager.Line in
            var tags: [String] = []
            // Pictures and sounds with a path a package may hold (a web address or `..` is not read: validate says so).
            if let image = line.image, (try? AssetPath(validating: image)) != nil {
                tags.append("image: \(image)")
                if let alt = line.imageAlt { tags.append("alt: \(alt)") }  // the `<img alt>`: the page's imageAlt
            }
            for sound in line.sounds where (try? AssetPath(validating: sound)) != nil { tags.append("sound: \(sound)") }
            switch line.loop {
            case .some(.some(let sound)) where (try? AssetPath(validating: sound)) != nil: tags.append("AUDIOLOOP: \(sound)")
            case .some(nil): tags.append("AUDIOLOOP: none")
            default: break
            }
            return Pager.Line(text: line.text, tags: tags, place: moment.passage)
        }
        // The loop playing when the moment starts: the one at the end of the moment before.
        let scene = PageScene(loop: before?.loop.flatMap { try? AssetPath(validating: $0) })
        let question = moment.error == nil ? moment.question.map { Self.question($0, askedIn: id) } : nil
        var pages = (try? Pager.pages(for: lines, choices: choices, choiceMarks: choiceMarks, question: question, scene: scene, saysLoop: saysLoop)) ?? []
        var stopped: String?
        if let error = moment.error {
            let where_ = moment.passage.isEmpty ? "" : " in passage \"\(StoryFormatError.printable(moment.passage))\""
            stopped = "\(file)\(where_): \(error)"
            pages.append(Page(id: "error", kind: .text(lines: ["The story stopped: \(stopped!)"])))
        } else if pages.isEmpty {
            pages.append(Page(id: "p1", kind: .text(lines: ["The end."])))
        }
        if id == Self.startBeatId {
            pages.insert(Page(id: "title", kind: .title(title: title, subtitle: nil)), at: 0)
        }
        var state: String?
        if let before, let json = try? Self.encoder.encode(before), json.count <= Self.maximumSavedState {
            state = String(decoding: json, as: UTF8.self)
        }
        let (steps, answers) = steps(to: id)
        let origin = BeatOrigin(seed: seed, steps: steps, state: state, version: version, stopped: stopped, answers: answers)
        return Beat(id: id, pages: pages, origin: origin)
    }

    // MARK: The caption

    /// The status page's title when the story has a StoryCaption or StoryBanner, nil otherwise.
    var captionTitle: String? { runtime.captionPassages.isEmpty ? nil : "Caption" }

    /// StoryBanner and StoryCaption as they read where beat `id` stops (SugarCube's UI bar beside that page),
    /// as the reader's status page (key `i`); nil for a story with neither, or an id never handed out.
    func statusPage(at id: String) -> StatusPage? {
        guard captionTitle != nil else { return nil }
        if let state = endStates.value(for: id) {
            runtime.state = state
        } else {
            guard beat(id) != nil else { return nil }  // leaves the runtime in the state the beat stopped in
        }
        let rows = runtime.caption().map { line -> StatusPage.Row in
            let text = PageMarkup.parse(line.text).text
            return .text(text.isEmpty ? line.imageAlt ?? "" : text)
        }
        return StatusPage(title: "Caption", rows: rows.isEmpty ? [.text("(The caption is empty here.)")] : rows)
    }

    // MARK: Resuming

    /// Makes the beat `origin` leads to known again: from its saved state (the state before its last link)
    /// when it belongs to this version of the story, else by replaying its links from the start.
    func restore(_ origin: BeatOrigin) -> OriginRestore {
        let seedChanged = origin.seed != seed
        if seedChanged {
            seed = origin.seed
            runtime.reseed(origin.seed)
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
        if let json = origin.state, origin.version == version, let state = try? JSONValueDecoder().decode(SugarCubeState.self, from: json) {
            if nodes[id]?.startState == state, !seedChanged { return .restored }
            nodes[id]?.startState = state
            _ = endStates.removeAll()
            return .restoredAnew
        }
        if origin.state == nil, origin.version == version { return seedChanged ? .restoredAnew : .restored }
        // Replay: every link must still be offered, every answer asked for.
        for (position, move) in origin.moves.enumerated() {
            let (moment, _) = run(chain[position])
            if let error = moment.error { return .failed(Self.replayFailure(position, error)) }
            switch move {
            case .choice(let step) where moment.question == nil && moment.links.indices.contains(step): continue
            case .answer where moment.question != nil: continue
            case .choice(let step): return .failed(Self.replayFailure(position, "link \(step + 1) is no longer offered"))
            case .answer: return .failed(Self.replayFailure(position, "no typed answer is asked for there any more"))
            }
        }
        return seedChanged ? .restoredAnew : .restored
    }

    private static func replayFailure(_ position: Int, _ reason: String) -> String {
        "the saved place in this SugarCube story could not be found again (at move \(position + 1): \(reason)); reading from the start"
    }
}
