import Foundation
import PajamaChoiceScript
import PajamaChoiceScriptBridge
import PajamaLoading
import PajamaTestSupport

/// `choicescript` (issue 39, docs/choicescript.md): a generated game of about 1 MB (`GeneratedChoiceScriptGame`:
/// forty rooms a chapter of text, `*if`/`*elseif`, `*rand`, `*set` and fairmath, `*gosub`, `*choice` with a
/// `*selectable_if` option, `*page_break`, `*finish` to the next scene) opened to its first page; and a choice's
/// cost in the interpreter over a long seeded path of the largest game of ../shared/corpora/choicescript.
struct ChoiceScriptScenario: Scenario {
    let name = "choicescript"
    let summary = "1 MB ChoiceScript game to the first page; a choice over a seeded path of the largest corpus game"

    /// The choices of the seeded path (a path that ends or stops starts again with the next seed).
    static let choices = 2_000

    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["CHOICESCRIPT_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/choicescript")
    }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = try TemporaryDirectory(prefix: "pajama-bench-choicescript")
        defer { folder.remove() }
        var total = 0
        for scene in GeneratedChoiceScriptGame.scenes(bytes: 1_000_000) {
            _ = try folder.write("scenes/\(scene.name).txt", scene.text)
            total += scene.text.utf8.count
        }
        guard let files = ChoiceScriptFiles.files(at: folder.path) else { throw ScenarioFailure(description: "the generated game is not found as one") }
        let size = "\(total / 1024) KB"

        // Opening: the source made, every scene read and parsed, story.json and the start beat made and paged.
        var failure: String?
        var opens: [Double] = []
        for round in 0..<(options.iterations(20) + 2) {
            let started = now()
            let source = ChoiceScriptStorySource(base: FolderStorySource(folder: files.folder), files: files.files, seed: 7)
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
        if let failure { throw ScenarioFailure(description: "opening the generated ChoiceScript game failed: \(failure)") }
        let open = Statistics(opens)
        return [
            BenchRow(scenario: name, name: "\(size) game to the first page", unit: .seconds, stats: open,
                     target: "median < 100 ms", met: open.median < 0.1,
                     note: "\(files.files.count) scenes read and parsed, story.json, the start beat paged (in process)"),
            try choiceRow(options),
        ]
    }

    /// A choice taken by the interpreter (`CSRuntime.choose`, the text and the next stop, without paging) along
    /// seeded random paths of the corpus's largest game (by the size of its scenes).
    private func choiceRow(_ options: BenchOptions) throws -> BenchRow {
        let label = "choice, largest corpus game"
        guard let (id, texts, bytes) = Self.largestCorpusGame() else {
            return BenchRow(scenario: name, name: label, unit: .seconds, stats: Statistics([]),
                            note: "skipped: needs ../shared/corpora/choicescript beside the project (or CHOICESCRIPT_CORPUS_DIR)")
        }
        let game = CSGame(sceneTexts: texts)
        var costs: [Double] = []
        var seed = 1
        var paths = 0
        let wanted = options.iterations(Self.choices)
        while costs.count < wanted, paths < 200 {
            let runtime = CSRuntime(game: game, seed: seed)
            var random = SeededGenerator(seed: UInt64(seed))
            var moment = runtime.start()
            paths += 1
            seed += 1
            walk: while costs.count < wanted {
                switch moment.stop {
                case .choice(let options):
                    let takeable = options.indices.filter { options[$0].selectable }
                    guard let index = takeable.randomElement(using: &random) else { break walk }
                    let started = now()
                    guard let next = try? runtime.choose(index) else { break walk }
                    costs.append(now() - started)
                    moment = next
                case .input:
                    guard let answer = runtime.randomtestAnswer, let next = try? runtime.answer(answer) else { break walk }
                    moment = next
                case .ending, .error:
                    break walk
                }
            }
        }
        guard !costs.isEmpty else { throw ScenarioFailure(description: "\(id): no choice could be taken") }
        let stats = Statistics(costs)
        return BenchRow(scenario: name, name: label, unit: .seconds, stats: stats, target: "p99 < 1 ms", met: stats.p99 < 0.001,
                        note: "\(id) (\(bytes / 1024) KB of scenes): \(costs.count) choices along \(paths) seeded paths, CSRuntime.choose")
    }

    /// The corpus game whose scenes are largest: its id, its scene texts by name and their size.
    static func largestCorpusGame() -> (id: String, texts: [String: String], bytes: Int)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) else { return nil }
        var best: (id: String, texts: [String: String], bytes: Int)?
        for id in names.sorted() {
            guard let files = ChoiceScriptFiles.files(at: corpus.appendingPathComponent(id).path) else { continue }
            var texts: [String: String] = [:]
            var bytes = 0
            for file in files.files {
                guard let text = try? String(contentsOfFile: files.folder + "/" + file, encoding: .utf8) else { continue }
                texts[String(file.split(separator: "/").last ?? "").replacingOccurrences(of: ".txt", with: "")] = text
                bytes += text.utf8.count
            }
            if bytes > best?.bytes ?? 0 { best = (id, texts, bytes) }
        }
        return best
    }
}
