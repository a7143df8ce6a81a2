import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaPaging
import PajamaJSON
import PajamaTwine

/// Makes the beats of a Twine story as they are read (docs/twine.md, "How: Twine is a source of beats"):
/// a beat is one moment of the Harlowe runtime (a passage entered, or a hook a link revealed), paged by the
/// ink bridge's pager; its choices are the moment's links. Ids are chained hashes as the ink bridge's: the
/// start is `start`, the beat after link `s` of beat `p` is `t-` + 16 hex digits of FNV-1a of `p:s`, so the
/// same story, seed and links give the same ids everywhere. The runtime's state at the end of the last
/// `statesKept` beats is kept (a value); a beat whose parent's state is gone is made by replaying its links
/// from the start.
///
/// Not thread-safe: owned by one `TwineStorySource` (an actor).
final class TwineBeatMaker {
    static let startBeatId = "start"
    static let statesKept = 64
    /// Largest state saved with a beat's origin (a larger one is replayed on resume instead).
    static let maximumSavedState = 256 * 1024

    let story: TwineStory
    let file: String
    let title: String
    let version: String
    private(set) var seed: Int
    private let runtime: HarloweRuntime
    /// The story loops background sounds: every page says which (Pager's `saysLoop`).
    private let saysLoop: Bool

    private struct Node {
        var parent: String?
        var step: Int
        /// The state before the link that leads here (its parent's end), when it came from saved progress.
        var startState: HarloweState?
    }

    private var nodes: [String: Node] = [TwineBeatMaker.startBeatId: Node(parent: nil, step: 0)]
    private var endStates = LRUCache<String, HarloweState>(countLimit: TwineBeatMaker.statesKept)

    init(story: TwineStory, file: String, title: String, version: String, seed: Int) {
        self.story = story
        runtime = HarloweRuntime(story: story, seed: seed)
        saysLoop = HarloweAudio.usesLoops(story)
        self.file = file
        self.title = title
        self.version = version
        self.seed = seed
    }

    /// Sorted keys: the same state is the same text (beats made again compare equal).
    private static let encoder = JSONValueEncoder.sorted

    static func childId(of parent: String, step: Int) -> String {
        let hex = String(FNV1a.hash("\(parent):\(step)"), radix: 16)
        return "t-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func steps(to id: String) -> [Int] {
        var steps: [Int] = []
        var cursor = id
        while let node = nodes[cursor], let parent = node.parent {
            steps.append(node.step)
            cursor = parent
        }
        return steps.reversed()
    }

    // MARK: Making beats

    /// The beat `id`, nil for an id this maker never handed out.
    func beat(_ id: String) -> Beat? {
        guard nodes[id] != nil else { return nil }
        var chain = [id]
        while let node = nodes[chain[chain.count - 1]], let parent = node.parent, node.startState == nil, !endStates.contains(parent) {
            chain.append(parent)
        }
        var made: (HarloweMoment, HarloweState?)?
        for beatId in chain.reversed() { made = run(beatId) }
        guard let (moment, before) = made else { return nil }
        return makeBeat(id, moment, before: before)
    }

    /// Runs the moment of beat `id` (its parent's end state kept, or its own start state known); returns it
    /// with the state before its link (nil for the start).
    private func run(_ id: String) -> (HarloweMoment, HarloweState?) {
        let node = nodes[id]!
        let moment: HarloweMoment
        var before: HarloweState?
        if let parent = node.parent {
            guard let state = node.startState ?? endStates.value(for: parent) else {
                return (HarloweMoment(passage: "", lines: [], links: [], unsupported: [], error: "the state before beat \(id) is gone"), nil)
            }
            before = state
            runtime.state = state
            do {
                moment = try runtime.choose(node.step)
            } catch {
                return (HarloweMoment(passage: "", lines: [], links: [], unsupported: [], error: "link \(node.step + 1) is not offered there"), before)
            }
        } else {
            moment = runtime.start()
        }
        if moment.error == nil, !moment.links.isEmpty {
            for index in moment.links.indices {
                let child = Self.childId(of: id, step: index)
                if nodes[child] == nil { nodes[child] = Node(parent: id, step: index) }
            }
            _ = endStates.insert(runtime.state, for: id, cost: 1)
        }
        return (moment, before)
    }

    /// The passage each beat made so far entered (`pajama test`'s coverage).
    private(set) var passageOfBeat: [String: String] = [:]
    /// The `[[links]]` each beat made so far weighed, shown or kept back (`pajama test`'s choices never offered).
    private(set) var linksOfBeat: [String: [TwineWeighedLink]] = [:]

    /// The passages a reader may enter: not the story's data, its scripts and styles, nor the passages Harlowe
    /// runs around every other (header, footer, startup).
    var readablePassages: [String] {
        let special: Set<String> = ["script", "stylesheet", "header", "footer", "startup", "debug-header", "debug-footer", "debug-startup"]
        return story.passages.filter { passage in
            !["StoryTitle", "StoryData", "hal.tracks"].contains(passage.name) && !passage.tags.contains(where: special.contains)
                && !passage.tags.contains { $0.hasPrefix("Twine.") }
        }.map(\.name)
    }

    private func makeBeat(_ id: String, _ moment: HarloweMoment, before: HarloweState?) -> Beat {
        if !moment.passage.isEmpty { passageOfBeat[id] = moment.passage }
        if !moment.weighed.isEmpty { linksOfBeat[id] = moment.weighed }
        var choices: [Choice] = []
        var choiceMarks: [LineMarks] = []
        if moment.error == nil {
            for (index, link) in moment.links.enumerated() {  // every link: the reader scrolls the list
                let parsed = PageMarkup.parse(link.label.isEmpty ? "(a link)" : (link.styled ?? link.label))
                if let marks = parsed.marks(line: index) { choiceMarks.append(marks) }
                choices.append(Choice(text: parsed.text, targetBeatId: Self.childId(of: id, step: index)))
            }
        }
        let lines = moment.lines.map { line -> Pager.Line in
            var tags: [String] = []
            if line.startsPage { tags.append("page") }
            // Pictures and sounds with a path a package may hold (a web address or `..` is not read: validate says so).
            if let image = line.image, (try? AssetPath(validating: image)) != nil {
                tags.append("image: \(image)")
                if let alt = line.imageAlt { tags.append("alt: \(alt)") }  // the `<img alt>`: the page's imageAlt
            }
            for sound in line.sounds where (try? AssetPath(validating: sound)) != nil {
                tags.append("sound: \(sound)")
                if let caption = line.soundCaptions[sound] { tags.append("caption: \(caption)") }  // the `<audio title>`
            }
            switch line.loop {
            case .play(let sound)? where (try? AssetPath(validating: sound)) != nil: tags.append("AUDIOLOOP: \(sound)")
            case .stop?: tags.append("AUDIOLOOP: none")
            default: break
            }
            return Pager.Line(text: line.text, tags: tags, place: moment.passage)
        }
        // The loop playing when the moment starts: the one at the end of the moment before.
        let scene = PageScene(loop: before?.loop.flatMap { try? AssetPath(validating: $0) })
        var pages = (try? Pager.pages(for: lines, choices: choices, choiceMarks: choiceMarks, scene: scene, saysLoop: saysLoop)) ?? []
        var stopped: String?
        if let error = moment.error {
            let where_ = moment.passage.isEmpty ? "" : " in passage \"\(StoryFormatError.printable(moment.passage))\""
            stopped = "\(file)\(where_): \(error)"
            pages.append(Page(id: "error", kind: .text(lines: ["The story stopped: \(stopped!)"])))
        } else if pages.isEmpty {
            // A passage that writes no words (empty, or a picture alone) and offers no link: an ending, whose
            // page shows what Harlowe shows, its picture or nothing (the reader's end screen says "The End";
            // a text page would need words Harlowe never writes).
            let picture = moment.lines.lazy.compactMap { line in line.image.flatMap { try? AssetPath(validating: $0) }.map { ($0, line.imageAlt) } }.first
            pages.append(Page(id: "p1", kind: .title(title: "", subtitle: nil), imageUrl: picture?.0, imageAlt: picture?.1))
        }
        if id == Self.startBeatId {
            pages.insert(Page(id: "title", kind: .title(title: title, subtitle: nil)), at: 0)
        }
        var state: String?
        if let before, let json = try? Self.encoder.encode(before), json.count <= Self.maximumSavedState {
            state = String(decoding: json, as: UTF8.self)
        }
        let origin = BeatOrigin(seed: seed, steps: steps(to: id), state: state, version: version, stopped: stopped)
        return Beat(id: id, pages: pages, origin: origin)
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
        for step in origin.steps {
            let child = Self.childId(of: id, step: step)
            if nodes[child] == nil { nodes[child] = Node(parent: id, step: step) }
            id = child
            chain.append(id)
        }
        if let json = origin.state, origin.version == version, let state = try? JSONValueDecoder().decode(HarloweState.self, from: json) {
            if nodes[id]?.startState == state, !seedChanged { return .restored }
            nodes[id]?.startState = state
            _ = endStates.removeAll()
            return .restoredAnew
        }
        if origin.state == nil, origin.version == version { return seedChanged ? .restoredAnew : .restored }
        // Replay: every link must still be offered.
        for (position, step) in origin.steps.enumerated() {
            let (moment, _) = run(chain[position])
            if let error = moment.error { return .failed(Self.replayFailure(position, error)) }
            guard moment.links.indices.contains(step) else {
                return .failed(Self.replayFailure(position, "link \(step + 1) is no longer offered"))
            }
        }
        return seedChanged ? .restoredAnew : .restored
    }

    private static func replayFailure(_ position: Int, _ reason: String) -> String {
        "the saved place in this Twine story could not be found again (at move \(position + 1): \(reason)); reading from the start"
    }
}
