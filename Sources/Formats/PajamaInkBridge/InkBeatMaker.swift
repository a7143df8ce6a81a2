import PajamaLoading
import PajamaModel
import PajamaPaging
import PajamaInk
import PajamaJSON

/// Makes the beats of an ink story as they are read (docs/ink.md, "Reading ink stories").
///
/// A beat is what the runtime says from one choice point to the next (or to the end), paged by `Pager`;
/// its choices lead to the beats that choosing them makes. Beat ids are chained hashes: the start is
/// `start`, the beat after step `s` (a choice index, or -1 when a long run goes on) from beat `p` is
/// `i-` + 16 hex digits of FNV-1a of `p:s`, so the same story, seed and choices give the same ids on every
/// run and machine. The maker keeps every id it handed out with its parent and step (a few dozen bytes
/// each), and the runtime's state at the end of the last `statesKept` beats it made; a beat whose parent's
/// state is gone is made again by replaying from the nearest beat whose state is kept (or the start).
///
/// Not thread-safe: owned by one `InkStorySource` (an actor).
final class InkBeatMaker {
    static let startBeatId = "start"
    /// Longest run of lines in one beat; a longer run goes on in a next beat (step -1).
    static let maximumLinesPerBeat = 120
    /// Runtime states kept (the end of each recently made beat).
    static let statesKept = 64
    /// Largest state saved with a beat's origin (a larger one is replayed on resume instead).
    static let maximumSavedState = 256 * 1024

    let file: String
    let version: String
    let title: String
    let author: String?
    /// The styles of the title page: the title's HTML (line 0) and the author's (line 1), as a text line's.
    let titleMarks: [LineMarks]
    /// The story's `# theme:` (global tag), when it names one Pajama knows.
    let theme: StoryTheme?
    /// True when the story has `# AUDIOLOOP` tags: every page then says its background sound (`Pager`).
    var saysLoop = false
    private(set) var seed: Int
    /// The external functions the story calls without an ink fallback: the story cannot be read here (each
    /// beat is a page saying so, naming them).
    let missingExternalFunctions: [String]
    /// The story's knots and stitches (`InkParts`), and those each beat made so far has lines in.
    let allParts: [String]
    private(set) var partsOfBeat: [String: [String]] = [:]
    /// The choices each beat made so far weighed at its choice points, each choice point and outcome once (by
    /// the first beat that weighed it so: `pajama test` merges them over all beats).
    private(set) var choicesOfBeat: [String: [WeighedChoice]] = [:]
    /// `InkParts.parts(ofPath:)` of each container path entered so far (the story's containers: bounded).
    private var partsOfPath: [String: [String]] = [:]
    private let story: Story
    /// Held while the story runs, and while a beat's kept start state is written (`KeptStart`): the one way
    /// the story is touched outside the source's actor.
    private let storyLock = Locked(())
    /// The runtime's errors of the current continue (its `onError`); warnings are not shown.
    private let errors = ErrorLog()

    private final class ErrorLog {
        var messages: [String] = []
    }

    private struct Node {
        var parent: String?
        var step: Int
        /// The state at the beat's start, when it came from saved progress.
        var startState: String?
        /// The background sound and picture at the beat's start (its parent's at the choice).
        var scene = PageScene()
    }

    private var nodes: [String: Node] = [InkBeatMaker.startBeatId: Node(parent: nil, step: 0)]
    /// The runtime's state at the end of the beats made last, kept in memory (not as JSON: a save and a load
    /// per beat were a quarter of a choice's cost).
    private var endStates = LRUCache<String, Story.StateCopy>(countLimit: InkBeatMaker.statesKept)
    /// The beat whose end state the runtime is in now (nil after anything else moved it): its children are
    /// made from the live state, without restoring the kept one.
    private var liveEnd: String?
    /// The steps to the beats made last (`steps(to:)`).
    private var recentSteps = LRUCache<String, [Int]>(countLimit: InkBeatMaker.statesKept)

    /// Why a beat could not be made.
    enum Problem: Error, Equatable {
        case unknownBeat(String)
        case badTag(Pager.BadTag)
        case runtime(String)
    }

    /// What the runtime said for one beat.
    private struct Segment {
        /// `needsGame`: the story calls external functions that have no ink fallback (it was written for a
        /// game that provides them); the runtime stops at its first line, as ink does.
        enum Outcome: Equatable { case choices, end, more, error(String), needsGame([String]) }
        var lines: [Pager.Line] = []
        var choices: [(text: String, tags: [String])] = []
        var outcome = Outcome.end
        /// The runtime's state at the beat's start, kept for the beat's origin (written only if read).
        var startState: KeptStart.Start
        /// The named containers the runtime entered making it (its knots and stitches: `partsOfBeat`).
        var entered: [String] = []
        /// The choices the runtime weighed making it (offered or kept back: `choicesOfBeat`).
        var weighed: [WeighedChoice] = []
    }

    /// `name` is the story's title when no global tag gives one (`InkStorySource.name(file:location:)`).
    init(document: JSON, file: String, name: String, version: String, seed: Int) throws(StoryLoadError) {
        story = try Story(document: document, seed: seed)
        // As the official runtimes' allowExternalFunctionFallbacks: an EXTERNAL with an ink function of the
        // same name runs that function (no game binds anything here).
        story.allowExternalFunctionFallbacks = true
        story.recordsEnteredContainers = true  // each beat's knots and stitches (`partsOfBeat`)
        story.recordsWeighedChoices = true  // and the choices it weighed (`choicesOfBeat`)
        missingExternalFunctions = story.missingExternalFunctions
        let errors = self.errors
        story.onError = { message, kind in if kind == .error { errors.messages.append(message) } }
        self.file = file
        self.version = version
        self.seed = seed
        allParts = InkParts.all(in: document)
        var title: PageMarkup.Parsed?
        var author: PageMarkup.Parsed?
        var theme: StoryTheme?
        for tag in story.globalTags {
            switch PageTag(tag) {
            case .title(let text) where title == nil: title = PageMarkup.parse(text)
            case .author(let text) where author == nil: author = PageMarkup.parse(text)
            case .theme(let name) where theme == nil: theme = StoryTheme(rawValue: name)
            default: break
            }
        }
        if let parsed = title, !parsed.text.isEmpty { title = parsed } else { title = nil }
        if let parsed = author, !parsed.text.isEmpty { author = parsed } else { author = nil }
        self.title = title?.text ?? name
        self.author = author?.text
        self.titleMarks = [title?.marks(line: 0), author?.marks(line: 1)].compactMap { $0 }
        self.theme = theme
    }

    /// The file name without `.ink.json` (or `.json`, or `.js`).
    static func stem(of file: String) -> String {
        let lower = file.lowercased()
        for suffix in [".ink.json", ".json", ".js"] where lower.hasSuffix(suffix) && lower.count > suffix.count {
            return String(file.dropLast(suffix.count))
        }
        return file
    }

    /// The id of the beat `step` leads to from `parent`.
    static func childId(of parent: String, step: Int) -> String {
        let hash = FNV1a.hash("\(parent):\(step)")
        let hex = String(hash, radix: 16)
        return "i-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The steps from the start to the beat `id` (which must be known). A beat is made after its parent, whose
    /// steps are kept (`recentSteps`): one step more, not a walk up the whole way, however long it is.
    func steps(to id: String) -> [Int] {
        var tail: [Int] = []
        var cursor = id
        var known: [Int] = []
        while let node = nodes[cursor], let parent = node.parent {
            if let steps = recentSteps.peek(cursor) {
                known = steps
                break
            }
            tail.append(node.step)
            cursor = parent
        }
        let steps = known + tail.reversed()
        _ = recentSteps.insert(steps, for: id, cost: 1)
        return steps
    }

    // MARK: Making beats

    /// The beat `id`, made by the runtime.
    func beat(_ id: String) throws(Problem) -> Beat {
        try storyLock.withLock { _ throws(Problem) in try lockedBeat(id) }
    }

    private func lockedBeat(_ id: String) throws(Problem) -> Beat {
        guard nodes[id] != nil else { throw .unknownBeat(id) }
        // Walk up to a beat that can be made at once: the start, a restored one, or one whose parent's end
        // state is kept; then make each beat down the chain (each keeps its end state for the next).
        var chain = [id]
        while let node = nodes[chain[chain.count - 1]], let parent = node.parent, node.startState == nil,
            !endStates.contains(parent)
        {
            chain.append(parent)
        }
        var segment: Segment?
        for beatId in chain.reversed() { segment = try run(beatId) }
        return try makeBeat(id, from: segment!)
    }

    /// Runs the runtime through the beat `id` (its parent's end state must be kept unless it is the start
    /// or restored), keeping its end state and noting the beats it leads to.
    private func run(_ id: String) throws(Problem) -> Segment {
        guard let node = nodes[id] else { throw .unknownBeat(id) }
        let live = liveEnd
        liveEnd = nil
        let start: KeptStart.Start
        do throws(StoryError) {
            if let state = node.startState {
                try story.loadStateJSON(state)
                start = .kept(story.copyState())
            } else if let parent = node.parent {
                guard let state = endStates.value(for: parent) else { throw StoryError("the state before beat \(id) is gone") }
                if live != parent { story.restoreState(state) }
                if node.step >= 0 {
                    try story.chooseChoiceIndex(node.step)
                    start = .afterChoice(state, node.step)  // copied only if read: one copy of the state a beat, not two
                } else {
                    start = .kept(state)
                }
            } else {
                try story.resetState(seed: seed)
                start = .kept(story.copyState())
            }
        } catch {
            throw .runtime(error.message)
        }
        _ = story.takeEnteredContainerPaths()  // what the beats before it entered
        _ = story.takeWeighedChoices()
        var segment = Segment(startState: start)
        if !missingExternalFunctions.isEmpty {
            segment.outcome = .needsGame(missingExternalFunctions)
            return segment
        }
        do throws(StoryError) {
            while story.canContinue {
                if segment.lines.count >= Self.maximumLinesPerBeat {
                    segment.outcome = .more
                    break
                }
                let path = story.currentPathString ?? ""
                errors.messages = []
                let text = Self.withoutTrailingNewlines(try story.continueStory())
                if let error = errors.messages.first {
                    // The line the runtime made before it stopped is read, as in ink (continue returns it).
                    if !text.isEmpty { segment.lines.append(Pager.Line(text: text, tags: story.currentTags, place: path)) }
                    segment.outcome = .error("ink error at \"\(path)\": \(error)")
                    break
                }
                segment.lines.append(Pager.Line(text: text, tags: story.currentTags, place: path))
            }
            if let restart = Pager.restartLine(in: segment.lines) {
                // `# RESTART`: the story stops before that line (the end screen offers the restart).
                segment.lines.removeSubrange(restart...)
                segment.outcome = .end
            }
            if segment.outcome == .end {
                segment.choices = story.currentChoices.map { ($0.text, $0.tags) }  // every one: the reader scrolls the list
                segment.outcome = segment.choices.isEmpty ? .end : .choices
            }
        } catch {
            let path = story.currentPathString.map { " at \"\($0)\"" } ?? ""
            segment.outcome = .error("ink error\(path): \(error.message)")
            segment.choices = []
        }
        segment.entered = story.takeEnteredContainerPaths()
        segment.weighed = story.takeWeighedChoices()
        let endScene = node.scene.after(segment.lines)
        switch segment.outcome {
        case .choices:
            for index in segment.choices.indices { note(Self.childId(of: id, step: index), parent: id, step: index, scene: endScene) }
            keepEndState(of: id)
        case .more:
            note(Self.childId(of: id, step: -1), parent: id, step: -1, scene: endScene)
            keepEndState(of: id)
        case .end, .error, .needsGame:
            break
        }
        return segment
    }

    /// A line as the runtime said it, without its newlines at the end, and empty when only spaces and tabs
    /// are left. On UTF-8 bytes: removing the newlines scalar by scalar was a twentieth of `pajama test`'s time.
    static func withoutTrailingNewlines(_ said: String) -> String {
        let bytes = said.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == 0x0A { end = bytes.index(before: end) }
        let kept = bytes[..<end]
        if kept.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return "" }
        return end == bytes.endIndex ? said : String(decoding: kept, as: UTF8.self)
    }

    /// Keeps the runtime's state at the end of beat `id`, which the runtime is in now.
    private func keepEndState(of id: String) {
        _ = endStates.insert(story.copyState(), for: id, cost: 1)
        liveEnd = id
    }

    /// Notes the beat `id` (kept if known) with the scene it starts in, when known.
    private func note(_ id: String, parent: String, step: Int, scene: PageScene? = nil) {
        if nodes[id] == nil { nodes[id] = Node(parent: parent, step: step) }
        if let scene { nodes[id]?.scene = scene }
    }

    private func makeBeat(_ id: String, from segment: Segment) throws(Problem) -> Beat {
        var parts: [String] = []
        for path in segment.entered { for part in knotAndStitch(ofPath: path) where !parts.contains(part) { parts.append(part) } }
        partsOfBeat[id] = parts
        if !segment.weighed.isEmpty { choicesOfBeat[id] = segment.weighed }
        let scene = nodes[id]?.scene ?? PageScene()
        var choices: [PajamaModel.Choice] = []
        var choiceMarks: [LineMarks] = []
        for (index, choice) in segment.choices.enumerated() {
            var sound: AssetPath?
            for tag in choice.tags {
                guard case .sound(let value) = PageTag(tag) else { continue }
                do {
                    sound = try AssetPath(validating: value)
                } catch {
                    throw .badTag(Pager.BadTag(tag: "# " + tag.trimmingTagSpaces(), place: "choice \(index + 1) of beat \(id)", reason: "sound: \(error)"))
                }
            }
            // The text's HTML styled as a line's (the plain text is what transcripts and the voice read).
            let parsed = PageMarkup.parse(choice.text)
            if let marks = parsed.marks(line: index) { choiceMarks.append(marks) }
            choices.append(PajamaModel.Choice(text: parsed.text, targetBeatId: Self.childId(of: id, step: index), soundURL: sound))
        }
        var pages: [Page]
        do {
            pages = try Pager.pages(for: segment.lines, choices: choices, choiceMarks: choiceMarks, scene: scene, saysLoop: saysLoop)
        } catch {
            throw .badTag(error)
        }
        var stopped: String?
        if case .error(let message) = segment.outcome {
            stopped = "\(file): \(message)"
            pages.append(Page(id: "error", kind: .text(lines: ["The story stopped: \(file): \(message)"])))
        } else if case .needsGame(let names) = segment.outcome {
            stopped = Self.needsGameText(names, file: file)
            pages.append(Page(id: "external", kind: .text(lines: [stopped!])))
        } else if pages.isEmpty {
            pages.append(Page(id: "p1", kind: .text(lines: ["The end."])))
        }
        if id == Self.startBeatId {
            pages.insert(Page(id: "title", kind: .title(title: title, subtitle: author), marks: titleMarks), at: 0)
        }
        let start = KeptStart(lock: storyLock, story: story, start: segment.startState)
        let origin = BeatOrigin(seed: seed, steps: steps(to: id), deferredState: DeferredState(start.write), version: version,
                                stopped: stopped, loop: scene.loop?.value, background: scene.background?.value,
                                backgroundAlt: scene.backgroundAlt)
        let next = segment.outcome == .more ? Self.childId(of: id, step: -1) : nil
        return Beat(id: id, pages: pages, nextBeatId: next, origin: origin)
    }

    private func knotAndStitch(ofPath path: String) -> [String] {
        if let parts = partsOfPath[path] { return parts }
        let parts = InkParts.parts(ofPath: path)
        partsOfPath[path] = parts
        return parts
    }

    /// What the reader is told when the story calls external functions without an ink fallback.
    static func needsGameText(_ names: [String], file: String) -> String {
        let quoted = names.map { "\"\(StoryFormatError.printable($0))\"" }.joined(separator: ", ")
        let functions = names.count == 1 ? "the function \(quoted)" : "the functions \(quoted)"
        return "\(file) was written for a game that provides \(functions): the story calls "
            + "\(names.count == 1 ? "it" : "them") (EXTERNAL) and has no ink fallback, so it cannot be read here."
    }

    // MARK: Resuming

    /// Makes the beat `origin` leads to known again: from its saved state when it belongs to this version of
    /// the story and loads, else by replaying its steps from the start (checking each).
    ///
    /// Without a state but for this version (a co-reading follower's move), the steps are only noted: each
    /// beat is made when asked for, from the same seed and choices.
    func restore(_ origin: BeatOrigin) -> OriginRestore {
        var written = origin
        written.state = origin.state  // written before the lock: it may be a state this maker keeps
        return storyLock.withLock { _ in lockedRestore(written) }
    }

    private func lockedRestore(_ origin: BeatOrigin) -> OriginRestore {
        let seedChanged = origin.seed != seed
        if seedChanged {
            seed = origin.seed
            _ = endStates.removeAll()
        }
        var id = Self.startBeatId
        var chain = [id]
        for step in origin.steps {
            let child = Self.childId(of: id, step: step)
            note(child, parent: id, step: step)
            id = child
            chain.append(id)
        }
        liveEnd = nil
        if let state = origin.state, origin.version == version, (try? story.loadStateJSON(state)) != nil {
            if nodes[id]?.startState == state, !seedChanged { return .restored }
            nodes[id]?.startState = state
            nodes[id]?.scene = PageScene(loop: origin.loop.flatMap { try? AssetPath(validating: $0) },
                                        background: origin.background.flatMap { try? AssetPath(validating: $0) }, backgroundAlt: origin.backgroundAlt)
            _ = endStates.removeAll()  // states made from another start of this beat
            return .restoredAnew
        }
        if origin.state == nil, origin.version == version { return seedChanged ? .restoredAnew : .restored }
        // Replay: every step must still be offered.
        for (position, step) in origin.steps.enumerated() {
            let segment: Segment
            do {
                segment = try run(chain[position])
            } catch {
                return .failed(Self.replayFailure(position, "\(error)"))
            }
            switch segment.outcome {
            case .choices where step >= 0 && step < segment.choices.count, .more where step == -1:
                continue
            case .error(let message):
                return .failed(Self.replayFailure(position, message))
            default:
                return .failed(Self.replayFailure(position, step >= 0 ? "choice \(step + 1) is no longer offered" : "the text no longer goes on there"))
            }
        }
        return seedChanged ? .restoredAnew : .restored
    }

    private static func replayFailure(_ position: Int, _ reason: String) -> String {
        "the saved place in this ink story could not be found again (at move \(position + 1): \(reason)); reading from the start"
    }
}

/// A beat's start state, kept for its origin's `DeferredState`: written as ink's state JSON when something
/// reads it (most beats are never saved or shared: writing each one was half of `pajama play`'s time).
final class KeptStart: @unchecked Sendable {
    // Safe: `story` and `start` are used only with `lock` held, as the maker runs the story only with it held.
    private let lock: Locked<Void>
    private let story: Story
    private let start: Start

    /// Where the state is: kept as it is, or the state a kept one leads to when its choice `index` is taken
    /// (made only when written: most beats start with a choice, and copying every beat's start state was a
    /// twentieth of `pajama test`'s time).
    enum Start {
        case kept(Story.StateCopy)
        case afterChoice(Story.StateCopy, Int)
    }

    init(lock: Locked<Void>, story: Story, start: Start) {
        self.lock = lock
        self.story = story
        self.start = start
    }

    /// The state's JSON, nil when it is larger than a beat keeps (`InkBeatMaker.maximumSavedState`) or the
    /// choice can no longer be taken from the state kept.
    @Sendable func write() -> String? {
        let json: String? = lock.withLock { _ in
            switch start {
            case .kept(let copy):
                return story.stateJSON(of: copy)
            case .afterChoice(let copy, let index):
                guard let chosen = try? story.copyState(choosing: index, after: copy) else { return nil }
                return story.stateJSON(of: chosen)
            }
        }
        guard let json, json.utf8.count <= InkBeatMaker.maximumSavedState else { return nil }
        return json
    }
}
