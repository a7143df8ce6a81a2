import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaInk
import PajamaInkBridge
import PajamaTestSupport

/// `ink-path`: a long reading of an ink story through everything the reader uses (issue 24): `pajama play` of
/// 1,200 choices on a generated 40 KB story, process start to exit; and, in process, the cost of each choice
/// (from taking it to the next choice page, every text page between turned as `play` turns them) over the
/// same 1,200 choices, the first 100 against the last 100. A cost that grows with the path shows as a last
/// 100 dearer than the first.
///
/// And the published game of issue 40 (../shared/corpora/ink, jabdownsmash/hybrid, 39 KB, a web export that
/// loops): `pajama play` of 1,200 choices (picked by the LCG of the ink scripts, seed 1, on story seed 7)
/// beside bink (scripts/ink-bench-bink.py play) reading the same choices, both as whole processes, taken in
/// turn so both meet the same load.
struct InkPathScenario: Scenario {
    let name = "ink-path"
    let summary = "pajama play of 1,200 ink choices beside bink (published 39 KB game), a 40 KB story; choice cost, first 100 vs last 100"

    static let choices = 1_200

    /// A generated story of about 40 KB: knots of 5 lines and two choices, the last leading back to the first.
    static func story() -> String {
        let perKnot = GeneratedInkStory.json(knots: 10, linesPerKnot: 5).utf8.count / 10
        return GeneratedInkStory.json(knots: max(2, 40_000 / perKnot), linesPerKnot: 5)
    }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = try TemporaryDirectory(prefix: "pajama-bench-ink-path")
        defer { folder.remove() }
        let text = Self.story()
        let file = try folder.write("path.ink.json", text)
        let size = "\(text.utf8.count / 1024) KB"

        // `pajama play`, the real binary. The story never ends: the choices run out after the last one.
        let play = try PlayRuns.untilChoicesRunOut(file: file.path, home: folder.path, choice: 1, count: Self.choices, iterations: options.iterations(5))
        let playStats = Statistics(play)

        // Each choice's cost, in process.
        let costs = try await Self.choiceCosts(folder: folder.path, file: "path.ink.json")
        let first = Statistics(Array(costs.prefix(100)))
        let last = Statistics(Array(costs.suffix(100)))
        let ratio = last.median / first.median
        return try publishedRows(options) + [
            BenchRow(scenario: name, name: "play 1,200 choices, \(size) story", unit: .seconds, stats: playStats,
                     target: "< 1 s", met: playStats.median < 1, note: "pajama play, process start to exit, transcript to /dev/null"),
            BenchRow(scenario: name, name: "choice cost, first 100", unit: .seconds, stats: first,
                     note: "take a choice, turn the pages to the next choice page (in process, as play does)"),
            BenchRow(scenario: name, name: "choice cost, last 100 (of 1,200)", unit: .seconds, stats: last, baseline: "choice cost, first 100",
                     target: "flat: median <= 1.5x the first 100's", met: ratio <= 1.5,
                     note: "last/first median \(String(format1: ratio))x"),
        ]
    }

    /// The published 39 KB game that loops, where the issue measured `play` against bink.
    static let publishedGame = PackagePaths.root.deletingLastPathComponent()
        .appendingPathComponent("shared/corpora/ink/jabdownsmash--hybrid/story.js")

    /// `pajama play` and bink's process on the published game's long path, in turn, with the ratio.
    private func publishedRows(_ options: BenchOptions) throws -> [BenchRow] {
        let label = "play 1,200 choices of hybrid (published, 39 KB)"
        let bink = BinkTimer()
        guard FileManager.default.fileExists(atPath: Self.publishedGame.path), bink.installed else {
            return [BenchRow(scenario: name, name: label, unit: .seconds, stats: Statistics([]),
                             note: "skipped: needs ../shared/corpora/ink beside the project and bink (scripts/ink-bink.sh)")]
        }
        let choices = try Self.longPath(file: Self.publishedGame.path, count: Self.choices)
        let list = choices.map(String.init).joined(separator: ",")
        let home = try TemporaryDirectory(prefix: "pajama-bench-ink-published")
        defer { home.remove() }
        let binary = try StartupScenario.builtPajama()
        let environment = Paths.environment(home: home.path).merging(["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        var pajamaTimes: [Double] = [], binkTimes: [Double] = []
        var failure: String?
        let runs = options.iterations(10)
        for run in 0...runs {  // run 0 warms both up
            var start = now()
            let ours = try ChildProcess.run(binary, ["play", Self.publishedGame.path, "--seed", "7", "--choices", list, "--transcript", "/dev/null"],
                                            environment: environment)
            if run > 0 { pajamaTimes.append(now() - start) }
            if ours.status != 1 || !ours.stderr.contains("the choices ran out after \(Self.choices)") {
                failure = "pajama play: exit \(ours.status): \(ours.stderr.suffix(300))"
            }
            start = now()
            let theirs = try ChildProcess.run(bink.python, [bink.script, "play", Self.publishedGame.path, list], timeout: 120)
            if run > 0 { binkTimes.append(now() - start) }
            if theirs.status != 0 || !theirs.stdout.contains("\"taken\": \(Self.choices)") {
                failure = "bink: exit \(theirs.status): \(theirs.stdout.suffix(200)) \(theirs.stderr.suffix(300))"
            }
        }
        if let failure { throw ScenarioFailure(description: failure) }
        let ours = Statistics(pajamaTimes), theirs = Statistics(binkTimes)
        let binkLabel = "bink (Python) reading the same 1,200 choices"
        return [
            BenchRow(scenario: name, name: binkLabel, unit: .seconds, stats: theirs,
                     note: "scripts/ink-bench-bink.py play, process start to exit, lines to /dev/null"),
            BenchRow(scenario: name, name: label, unit: .seconds, stats: ours, baseline: binkLabel,
                     target: "no slower than bink", met: ours.median <= theirs.median,
                     note: "pajama play, process start to exit, transcript to /dev/null; pajama/bink median \(String(format1: ours.median / theirs.median))x"),
        ]
    }

    /// `count` choices (1-based) from the start of the ink file at `path`, each picked by the ink scripts' LCG
    /// (seed 1) among those offered, story seed 7: the path both processes read.
    static func longPath(file path: String, count: Int) throws -> [Int] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard let json = InkFileFormat.json(in: bytes) else { throw ScenarioFailure(description: "\(path) is not a compiled ink story") }
        let player = try InkPlayer(json: String(decoding: json, as: UTF8.self))
        var picker = ChoicePicker(state: 1)
        var taken: [Int] = []
        while taken.count < count {
            player.continueToChoice()
            let offered = player.story.currentChoices.count
            guard offered > 0 else { throw ScenarioFailure(description: "\(path): the story ends after \(taken.count) choices") }
            let index = picker.pick(offered)
            try player.story.chooseChoiceIndex(index)
            taken.append(index + 1)
        }
        return taken
    }

    /// The time of each of `choices` choices: from taking choice 1 to the next choice page.
    @MainActor
    static func choiceCosts(folder: String, file: String) async throws -> [Double] {
        let source = InkStorySource(base: FolderStorySource(folder: folder), file: file, seed: 7)
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil, decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: []) }, sound: nil,
            preloading: false)
        let viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
        await viewModel.start(restart: true)
        var costs: [Double] = []
        var started: Double?
        var moves = 0
        while costs.count < choices {
            moves += 1
            guard moves < 1_000_000, case .page(let page) = viewModel.state else {
                throw ScenarioFailure(description: "the reading stopped after \(costs.count) choices: \(viewModel.state)")
            }
            if case .choice = page.page.kind {
                if let started { costs.append(now() - started) }
                started = now()
                await viewModel.changePage(.choose(0))
            } else {
                await viewModel.changePage(.advance)
            }
        }
        await viewModel.close()
        return costs
    }
}
