import Foundation
import PajamaCore
import PajamaInkBridge
import PajamaTestSupport

/// `ink-path`: a long reading of an ink story through everything the reader uses (issue 24): `pajama play` of
/// 1,200 choices on a generated 40 KB story, process start to exit; and, in process, the cost of each choice
/// (from taking it to the next choice page, every text page between turned as `play` turns them) over the
/// same 1,200 choices, the first 100 against the last 100. A cost that grows with the path shows as a last
/// 100 dearer than the first.
struct InkPathScenario: Scenario {
    let name = "ink-path"
    let summary = "pajama play of 1,200 ink choices (40 KB story); choice cost, first 100 vs last 100"

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
        return [
            BenchRow(scenario: name, name: "play 1,200 choices, \(size) story", unit: .seconds, stats: playStats,
                     target: "< 1 s", met: playStats.median < 1, note: "pajama play, process start to exit, transcript to /dev/null"),
            BenchRow(scenario: name, name: "choice cost, first 100", unit: .seconds, stats: first,
                     note: "take a choice, turn the pages to the next choice page (in process, as play does)"),
            BenchRow(scenario: name, name: "choice cost, last 100 (of 1,200)", unit: .seconds, stats: last, baseline: "choice cost, first 100",
                     target: "flat: median <= 1.5x the first 100's", met: ratio <= 1.5,
                     note: "last/first median \(String(format1: ratio))x"),
        ]
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
