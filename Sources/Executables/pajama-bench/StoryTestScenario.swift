import Foundation
import PajamaStorage
import PajamaJSON
import PajamaTestSupport

/// `story-test`: `pajama test` (issue 40) as an author runs it. 10,000 random runs of the largest published ink
/// game of ../shared/corpora/ink (AaronLip/foundry-ink's intercept.json, 155 KB) as one process on every core,
/// beside the same runs through bink's own Python loop (scripts/ink-bench-bink.py runs: reset, continue, a
/// random choice, to the end). bink takes about 20 ms a run, so it runs 1,000 and its total is given for
/// 10,000 (10x its 1,000). And the exhaustive walk of each bundled story: its time and the states it walked.
struct StoryTestScenario: Scenario {
    let name = "story-test"
    let summary = "pajama test: 10,000 random runs of the largest published ink game beside bink; exhaustive walks of the bundled stories"

    static let runs = 10_000
    static let binkRuns = 1_000

    static let largestInkGame = PackagePaths.root.deletingLastPathComponent()
        .appendingPathComponent("shared/corpora/ink/AaronLip--foundry-ink/intercept.json")

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let binary = try StartupScenario.builtPajama()
        let home = try TemporaryDirectory(prefix: "pajama-bench-story-test")
        defer { home.remove() }
        let environment = Paths.environment(home: home.path).merging(["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        return try randomRunRows(binary: binary, environment: environment, options: options)
            + exhaustiveRows(binary: binary, environment: environment, options: options)
    }

    private func randomRunRows(binary: String, environment: [String: String], options: BenchOptions) throws -> [BenchRow] {
        let label = "10,000 random runs of intercept (published, 155 KB), all cores"
        let bink = BinkTimer()
        guard FileManager.default.fileExists(atPath: Self.largestInkGame.path), bink.installed else {
            return [BenchRow(scenario: name, name: label, unit: .seconds, stats: Statistics([]),
                             note: "skipped: needs ../shared/corpora/ink beside the project and bink (scripts/ink-bink.sh)")]
        }
        var failure: String?
        let ours = try measure(iterations: options.iterations(3), warmup: 1) {
            let result = try ChildProcess.run(binary, ["test", Self.largestInkGame.path, "--runs", String(Self.runs), "--seed", "1"],
                                              environment: environment, timeout: 600)
            if result.status != 0 || !result.stdout.contains("10000 random runs") {
                failure = "pajama test: exit \(result.status): \(result.stdout.suffix(300)) \(result.stderr.suffix(300))"
            }
        }
        if let failure { throw ScenarioFailure(description: failure) }
        guard let theirs = try bink.run(["runs", Self.largestInkGame.path, String(Self.binkRuns)]) else {
            throw ScenarioFailure(description: "bink is not installed")
        }
        let binkTotal = theirs.samples.reduce(0, +) * Double(Self.runs / Self.binkRuns)
        let pajama = Statistics(ours)
        let binkLabel = "bink (Python loop), 10,000 runs of intercept"
        let ratio = binkTotal / pajama.median
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return [
            BenchRow(scenario: name, name: binkLabel, unit: .seconds, stats: Statistics([binkTotal]),
                     note: "scripts/ink-bench-bink.py runs: \(Self.binkRuns) runs timed in one process, x\(Self.runs / Self.binkRuns); median run \(Format.value(Statistics(theirs.samples).median, .seconds))"),
            BenchRow(scenario: name, name: label, unit: .seconds, stats: pajama, baseline: binkLabel,
                     target: "< 10 s and >= 10x faster than bink", met: pajama.median < 10 && ratio >= 10,
                     note: "pajama test --runs 10000, process start to exit, \(cores) cores; bink/pajama \(String(format1: ratio))x"),
        ]
    }

    /// `pajama test STORY --exhaustive --json` on each bundled story: the time, and the states from the report.
    private func exhaustiveRows(binary: String, environment: [String: String], options: BenchOptions) throws -> [BenchRow] {
        let stories = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.stories.path)
            .filter { (try? PackagePaths.stories.appendingPathComponent($0).resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted()
        var rows: [BenchRow] = []
        for story in stories {
            let path = PackagePaths.stories.appendingPathComponent(story).path
            var report: JSON?
            var failure: String?
            let times = try measure(iterations: options.iterations(10), warmup: 1) {
                let result = try ChildProcess.run(binary, ["test", path, "--exhaustive", "--json"], environment: environment, timeout: 300)
                report = try? JSONParser.parse(result.stdout)
                if result.status > 1 || report == nil { failure = "pajama test \(story) --exhaustive: exit \(result.status): \(result.stderr.suffix(300))" }
            }
            if let failure { throw ScenarioFailure(description: failure) }
            let states = report?["exhaustive"]?["states"].flatMap { if case .int(let n) = $0 { n } else { nil } } ?? 0
            let complete = report?["exhaustive"]?["complete"].flatMap { if case .bool(let b) = $0 { b } else { nil } } ?? false
            rows.append(BenchRow(scenario: name, name: "exhaustive walk of \(story)", unit: .seconds, stats: Statistics(times),
                                 note: "\(states) states, \(complete ? "every reachable state" : "not complete"); process start to exit"))
        }
        return rows
    }
}
