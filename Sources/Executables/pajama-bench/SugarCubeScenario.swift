import Foundation
import PajamaLoading
import PajamaSugarCube
import PajamaSugarCubeBridge
import PajamaTestSupport
import PajamaTwine

/// `sugarcube` (issue 38, docs/sugarcube.md): the largest story of ../shared/corpora/sugarcube (by the size of
/// its story files) opened to its first page; a passage with macros played by the runtime, along seeded
/// random paths of that story; and the JavaScript engine's start-up (a runtime made for a one-passage story:
/// the JavaScriptCore context, SugarCube's API and the passages handed to it).
struct SugarCubeScenario: Scenario {
    let name = "sugarcube"
    let summary = "largest SugarCube corpus story to the first page; a passage with macros; the JavaScript engine's start-up"

    /// The passages with macros measured (a path that ends or stops starts again with the next seed).
    static let passages = 1_000

    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["SUGARCUBE_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/sugarcube")
    }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        var rows: [BenchRow] = []
        if let largest = Self.largestStory() {
            rows += try await storyRows(largest, options)
        } else {
            for label in ["largest corpus story to the first page", "passage with macros"] {
                rows.append(BenchRow(scenario: name, name: label, unit: .seconds, stats: Statistics([]),
                                     note: "skipped: needs ../shared/corpora/sugarcube beside the project (or SUGARCUBE_CORPUS_DIR)"))
            }
        }
        rows.append(try engineRow(options))
        return rows
    }

    private func storyRows(_ largest: (id: String, folder: String, files: [String], bytes: [UInt8]), _ options: BenchOptions) async throws -> [BenchRow] {
        let size = "\(largest.bytes.count / 1024) KB"
        // Opening: the source made, the files read and parsed, the Story JavaScript run, story.json and the
        // start passage made and paged.
        var failure: String?
        var opens: [Double] = []
        for round in 0..<(options.iterations(20) + 2) {
            let started = now()
            let source = SugarCubeStorySource(base: FolderStorySource(folder: largest.folder), files: largest.files, seed: 7)
            do {
                _ = try await source.read("story.json")
                guard let beat = try await source.madeBeat("start"), !beat.pages.isEmpty else { failure = "no first page"; break }
                if let stopped = beat.origin?.stopped { failure = stopped; break }
            } catch {
                failure = "\(error)"
                break
            }
            if round >= 2 { opens.append(now() - started) }
        }
        if let failure { throw ScenarioFailure(description: "opening \(largest.id) failed: \(failure)") }
        let open = Statistics(opens)

        // A passage with macros: a link taken (`SugarCubeRuntime.choose`, without paging) whose passage holds `<<`.
        let story = try TwineFileKind.parse(String(decoding: largest.bytes, as: UTF8.self))
        let runtime = SugarCubeRuntime(story: story, seed: 1)
        var costs: [Double] = []
        var seed = 1
        var paths = 0
        let wanted = options.iterations(Self.passages)
        while costs.count < wanted, paths < 500 {
            runtime.reseed(seed)
            var random = SeededGenerator(seed: UInt64(seed))
            var moment = runtime.start()
            paths += 1
            seed += 1
            for _ in 0..<200 {
                guard moment.error == nil, !moment.links.isEmpty, costs.count < wanted else { break }
                let pick = Int.random(in: 0..<moment.links.count, using: &random)
                let started = now()
                guard let next = try? runtime.choose(pick) else { break }
                let cost = now() - started
                if next.entered.contains(where: { story.passage(named: $0)?.text.contains("<<") == true }) { costs.append(cost) }
                moment = next
            }
        }
        guard !costs.isEmpty else { throw ScenarioFailure(description: "\(largest.id): no passage with macros was reached") }
        let passage = Statistics(costs)
        return [
            BenchRow(scenario: name, name: "\(size) story to the first page", unit: .seconds, stats: open,
                     target: "median < 100 ms", met: open.median < 0.1,
                     note: "\(largest.id): read, parse, Story JavaScript, story.json, the start passage paged (in process)"),
            BenchRow(scenario: name, name: "passage with macros", unit: .seconds, stats: passage,
                     target: "p99 < 2 ms", met: passage.p99 < 0.002,
                     note: "\(largest.id): \(costs.count) links taken along \(paths) seeded paths, SugarCubeRuntime.choose"),
        ]
    }

    /// The JavaScript engine's start-up: a runtime for a story of one passage and no Story JavaScript.
    private func engineRow(_ options: BenchOptions) throws -> BenchRow {
        let story = try Twee.parse("""
            :: StoryData
            {"ifid": "00000000-0000-0000-0000-000000000038", "format": "SugarCube", "format-version": "2.37.3", "start": "Start"}

            :: Start
            <<set $bench to 1>>The bench begins. [[Again->Start]]

            """)
        var starts: [Double] = []
        for round in 0..<(options.iterations(50) + 2) {
            let started = now()
            let runtime = SugarCubeRuntime(story: story, seed: 7)
            let moment = runtime.start()
            let cost = now() - started
            if let error = moment.error { throw ScenarioFailure(description: "the one-passage story stopped: \(error)") }
            if round >= 2 { starts.append(cost) }
        }
        let stats = Statistics(starts)
        return BenchRow(scenario: name, name: "JavaScript engine start-up", unit: .seconds, stats: stats,
                        target: "median < 20 ms", met: stats.median < 0.02,
                        note: "SugarCubeRuntime for a one-passage story: the JavaScriptCore context, SugarCube's API, start()")
    }

    /// The corpus story whose story files are largest: its id, folder, files and their bytes (joined as the
    /// source joins them).
    static func largestStory() -> (id: String, folder: String, files: [String], bytes: [UInt8])? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) else { return nil }
        var best: (id: String, folder: String, files: [String], bytes: [UInt8])?
        for id in names.sorted() {
            guard let found = SugarCubeFormat().find(at: corpus.appendingPathComponent(id).path) else { continue }
            let base = FolderStorySource(folder: found.folder)
            var bytes: [UInt8] = []
            for file in found.files { bytes += ((try? base.readSync(file)) ?? []) + [0x0A] }
            if bytes.count > best?.bytes.count ?? 0 { best = (id, found.folder, found.files, bytes) }
        }
        return best
    }
}
