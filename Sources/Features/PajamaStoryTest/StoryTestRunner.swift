import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStoryFormat

/// `pajama test`: random runs or an exhaustive walk of a story, through its `StorySource` whatever its format,
/// in process and across jobs (docs/testing.md).
public struct StoryTestRunner: Sendable {
    /// Opens the story once for each job: a source that makes its beats is a runtime with a state of its own.
    public typealias Opener = @Sendable () async -> any StorySource

    /// The story cannot be read at all (`pajama test` exits 2).
    public struct Unreadable: Error, Sendable, Equatable {
        public var message: String
    }

    /// The story as the user named it, for the replay lines.
    public var story: String
    public var options: StoryTestOptions
    public var open: Opener

    public init(story: String, options: StoryTestOptions, open: @escaping Opener) {
        self.story = story
        self.options = options
        self.open = open
    }

    /// Runs the test. `progress` hears how many runs (or states) are done, from any job.
    public func run(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) async throws(Unreadable) -> StoryTestReport {
        let first: StoryWalker
        do {
            first = try await StoryWalker(source: await open())
            _ = try await first.beat(first.manifest.startBeatId)
        } catch {
            throw Unreadable(message: error.message)
        }
        var tally: StoryTestTally
        var exhaustive: StoryTestReport.Exhaustive?
        var runs = options.runs
        if options.exhaustive {
            (tally, exhaustive) = await walkEveryState(first, progress: progress)
            runs = exhaustive?.states ?? 0
        } else {
            tally = await randomRuns(first: first, progress: progress)
        }
        return await report(tally, walker: first, runs: runs, exhaustive: exhaustive)
    }

    // MARK: Random runs

    private func randomRuns(first: StoryWalker, progress: (@Sendable (Int, Int) -> Void)?) async -> StoryTestTally {
        let jobs = min(options.jobs, max(1, options.runs))
        let done = Locked(0)
        let total = options.runs
        let oneJob: @Sendable (Int, StoryWalker?) async -> StoryTestTally = { [self] job, given in
            var tally = StoryTestTally()
            let walker: StoryWalker
            if let given {
                walker = given
            } else {
                do throws(StoryWalker.Unreadable) {
                    walker = try await StoryWalker(source: await open())
                } catch {
                    tally.found(problem(.unreadable, error.message, beatId: "", pageId: nil, choices: [], madeBeats: false))
                    return tally
                }
            }
            for run in stride(from: job, to: total, by: jobs) {
                await randomRun(run, walker: walker, into: &tally)
                let count = done.withLock { count in
                    count += 1
                    return count
                }
                progress?(count, total)
            }
            return tally
        }
        if jobs == 1 { return await oneJob(0, first) }
        return await withTaskGroup(of: StoryTestTally.self) { group in
            for job in 0..<jobs { group.addTask { await oneJob(job, nil) } }
            var merged = StoryTestTally()
            for await tally in group { merged.merge(tally) }
            return merged
        }
    }

    /// Run `index`: from the start, a choice at random (the run's own generator) at every choice page, to an
    /// ending, a problem or `maxSteps` beats.
    private func randomRun(_ index: Int, walker: StoryWalker, into tally: inout StoryTestTally) async {
        var random = SplitMix64(seed: UInt64(bitPattern: Int64(options.seed)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index))
        var id = walker.manifest.startBeatId
        var choices: [Int] = []
        for _ in 0..<options.maxSteps {
            let beat: Beat
            do {
                beat = try await walker.beat(id)
            } catch {
                tally.found(problem(.unreadable, error.message, beatId: id, pageId: nil, choices: choices, madeBeats: walker.source.makesBeats))
                return
            }
            switch await step(beat, walker: walker, choices: choices, into: &tally) {
            case .next(let next):
                id = next
            case .choose(let offered):
                let taken = Int(random.next() % UInt64(offered.count))
                choices.append(taken + 1)
                id = offered[taken].targetBeatId
            case .stop:
                return
            }
        }
        tally.found(problem(.noEnding, "no ending after \(options.maxSteps) beats (a loop?)", beatId: id, pageId: nil, choices: choices, madeBeats: walker.source.makesBeats))
    }

    // MARK: The exhaustive walk

    /// Every distinct state reachable from the start, breadth first: a beat's state is its origin's state
    /// (a story made as it is read) or its id (a package), so two ways to the same state are walked once.
    private func walkEveryState(_ walker: StoryWalker, progress: (@Sendable (Int, Int) -> Void)?) async
        -> (StoryTestTally, StoryTestReport.Exhaustive)
    {
        var tally = StoryTestTally()
        var queue: [(id: String, choices: [Int])] = [(walker.manifest.startBeatId, [])]
        var next = 0
        var seen: Set<String> = []
        var complete = true
        while next < queue.count {
            let (id, choices) = queue[next]
            next += 1
            let beat: Beat
            do {
                beat = try await walker.beat(id)
            } catch {
                tally.found(problem(.unreadable, error.message, beatId: id, pageId: nil, choices: choices, madeBeats: walker.source.makesBeats))
                continue
            }
            guard !seen.contains(Self.state(of: beat)) else { continue }
            if seen.count == options.maxStates {
                complete = false  // a state not seen, and no room for it
                break
            }
            seen.insert(Self.state(of: beat))
            progress?(seen.count, options.maxStates)
            switch await step(beat, walker: walker, choices: choices, into: &tally) {
            case .next(let id): queue.append((id, choices))
            case .choose(let offered):
                for (index, choice) in offered.enumerated() { queue.append((choice.targetBeatId, choices + [index + 1])) }
            case .stop: break
            }
        }
        return (tally, StoryTestReport.Exhaustive(states: seen.count, complete: complete))
    }

    /// The answer a test run types on a question page (`Question.automaticAnswer`: ChoiceScript's randomtest's).
    static func answer(to question: Question) -> String { question.automaticAnswer }

    static func state(of beat: Beat) -> String {
        if let origin = beat.origin, let hash = origin.stateHash { return "state \(hash) \(origin.loop ?? "") \(origin.background ?? "")" }
        return "beat \(beat.id)"
    }

    // MARK: One beat

    private enum Step {
        case next(String)
        case choose([Choice])
        case stop
    }

    /// Takes in what `beat` holds and says where reading can go from it.
    private func step(_ beat: Beat, walker: StoryWalker, choices: [Int], into tally: inout StoryTestTally) async -> Step {
        tally.reached(beat, choices: choices, countsPages: walker.countsPages)
        tally.parts.formUnion(await walker.partsReached(by: beat))
        tally.weighed.formUnion(await walker.choicesWeighed(by: beat))
        if let stopped = beat.origin?.stopped {
            tally.found(problem(.runtimeError, stopped, beatId: beat.id, pageId: beat.pages.last?.id, choices: choices, answers: beat.origin?.answers ?? [], madeBeats: walker.source.makesBeats))
            return .stop
        }
        if let next = beat.nextBeatId { return .next(next) }
        guard let last = beat.pages.last else {
            tally.found(problem(.deadEnd, "the beat has no page", beatId: beat.id, pageId: nil, choices: choices, answers: beat.origin?.answers ?? [], madeBeats: walker.source.makesBeats))
            return .stop
        }
        if case .choice(_, let offered) = last.kind {
            if offered.isEmpty {
                tally.found(problem(.deadEnd, "a choice page without a choice: reading cannot go on", beatId: beat.id, pageId: last.id, choices: choices, answers: beat.origin?.answers ?? [], madeBeats: walker.source.makesBeats))
                return .stop
            }
            return .choose(offered)
        }
        if case .question(let question) = last.kind { return .next(question.beatId(answering: Self.answer(to: question))) }
        tally.endings[Self.ending(beat, madeBeats: walker.source.makesBeats), default: 0] += 1
        return .stop
    }

    /// An ending's name: its beat id in a package; the last line of its last page in a story made as it is
    /// read (whose beat ids are the ways to them, one per way).
    static func ending(_ beat: Beat, madeBeats: Bool) -> String {
        guard madeBeats else { return beat.id }
        for page in beat.pages.reversed() {
            guard case .text(let lines) = page.kind else { continue }
            if let line = lines.last(where: { !$0.allSatisfy(\.isWhitespace) }) {
                let words = line.trimmingSpaces
                return words.count > 60 ? String(words.prefix(59)) + "…" : words
            }
        }
        return beat.id
    }

    /// `answers`: those typed on the way (a made beat's `origin.answers`), for the replay line.
    private func problem(_ kind: StoryTestReport.Problem.Kind, _ message: String, beatId: String, pageId: String?, choices: [Int],
                         answers: [String] = [], madeBeats: Bool) -> StoryTestReport.Problem
    {
        StoryTestReport.Problem(kind: kind, message: message, beatId: beatId, pageId: pageId, choices: choices,
                                replay: replay(choices, answers: answers), madeBeats: madeBeats)
    }

    /// The `pajama play` line that reads the story along `choices`, typing `answers` on its question pages
    /// (`--answers`, a comma inside an answer as `\,`).
    func replay(_ choices: [Int], answers: [String] = []) -> String {
        var line = "pajama play \(Self.shellQuoted(story))"
        if options.seed != 0 { line += " --seed \(options.seed)" }
        if !choices.isEmpty { line += " --choices " + choices.map(String.init).joined(separator: ",") }
        if !answers.isEmpty { line += " --answers " + Self.shellQuoted(answers.map { $0.replacing(",", with: "\\,") }.joined(separator: ",")) }
        return line
    }

    /// `word` as a shell reads it back: as it is when plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        !word.isEmpty && word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:,".contains($0) }) ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    // MARK: The report

    private func report(_ tally: StoryTestTally, walker: StoryWalker, runs: Int, exhaustive: StoryTestReport.Exhaustive?) async -> StoryTestReport {
        var tally = tally
        // Pictures and sounds named on pages reached, each read once.
        for (path, place) in tally.assets.sorted(by: { $0.key.value < $1.key.value }) {
            do {
                _ = try await walker.source.read(path.value)
            } catch {
                let what = place.reference.role.isSound ? "sound" : "picture"
                let why: String = if case .notFound = error { "is not in the story" } else { "cannot be read: \(error)" }
                tally.found(problem(.missingAsset, "the \(what) \(path.value) \(why)", beatId: place.reference.beatId, pageId: place.reference.pageId,
                                    choices: place.choices, madeBeats: walker.source.makesBeats))
            }
        }
        var coverage: [StoryTestReport.Coverage] = []
        var neverOffered: [NeverOfferedChoice]?
        if let listed = walker.manifest.beats, !walker.source.makesBeats {
            coverage.append(.init(kind: "beats", reached: tally.beats.intersection(listed).count, total: listed.count,
                                  unreached: listed.filter { !tally.beats.contains($0) }))
            var pages: [String] = []
            for id in listed { if let beat = try? await walker.beat(id) { pages += beat.pages.map { "\(id)/\($0.id)" } } }
            coverage.append(.init(kind: "pages", reached: tally.pages.intersection(pages).count, total: pages.count,
                                  unreached: pages.filter { !tally.pages.contains($0) }))
        } else if let parts = walker.source as? any StoryPartsSource {
            let all = await parts.allParts()
            coverage.append(.init(kind: parts.partsName, reached: tally.parts.intersection(all).count, total: all.count,
                                  unreached: all.filter { !tally.parts.contains($0) }))
            neverOffered = await parts.neverOffered(reached: tally.parts, weighed: tally.weighed)
        } else {
            coverage.append(.init(kind: "pages", reached: tally.pages.count, total: nil, unreached: []))
        }
        return StoryTestReport(
            story: story, title: walker.manifest.title, mode: options.exhaustive ? "exhaustive" : "random", runs: runs, seed: options.seed,
            coverage: coverage,
            endings: tally.endings.map { StoryTestReport.Ending(id: $0.key, count: $0.value) }.sorted { ($1.count, $0.id) < ($0.count, $1.id) },
            problems: tally.problems.values.sorted(), exhaustive: exhaustive, neverOffered: neverOffered)
    }
}

/// SplitMix64: a run's choices, from its seed alone.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
