import Foundation
import PajamaChoiceScript
import PajamaModel
import PajamaFormats
import PajamaTestSupport
import Testing

/// The ChoiceScript games of `../shared/corpora/choicescript` (or `CHOICESCRIPT_CORPUS_DIR`; other people's
/// work, never committed here). CI has the corpus beside the clone: the test fails, never skips, when it is
/// absent. Every game of the manifest opens as a story (`StorySources.open`: its story.json and start beat),
/// and is played along five seeded paths of up to 300 choices (a random takeable option each time): each
/// path reaches a choice or an ending, and a path that stops says where and why ("scene line N: reason").
/// `CHOICESCRIPT_CORPUS_REPORT=FILE` writes each path's choices and how it ended.
@Suite struct ChoiceScriptCorpusTests {
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["CHOICESCRIPT_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/choicescript")
    }

    static func ids() -> [String] {
        let manifest = corpus.appendingPathComponent("manifest.tsv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            Issue.record("no ChoiceScript corpus at \(corpus.path) (manifest.tsv): CI has it as ../shared/corpora/choicescript")
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }

    static func game(_ id: String) throws -> CSGame {
        let scenes = corpus.appendingPathComponent(id).appendingPathComponent("scenes")
        var texts: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: scenes.path) where name.hasSuffix(".txt") {
            texts[String(name.dropLast(4))] = try String(contentsOf: scenes.appendingPathComponent(name), encoding: .utf8)
        }
        return CSGame(sceneTexts: texts)
    }

    struct Walk {
        var choices: [Int] = []
        var end: String
        var reachedChoiceOrEnding: Bool
    }

    /// Plays `game` from its start taking a random takeable option (`seed`), until an ending, an error or 300 choices.
    static func walk(_ game: CSGame, seed: Int) -> Walk {
        let runtime = CSRuntime(game: game, seed: seed)
        var random = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var moment = runtime.start()
        var walk = Walk(end: "", reachedChoiceOrEnding: false)
        while true {
            switch moment.stop {
            case .ending:
                walk.end = "ending"
                walk.reachedChoiceOrEnding = true
                return walk
            case .error(let message):
                walk.end = message
                return walk
            case .input:
                // A typed answer: randomtest's (ChoiceScript's own test types it too).
                walk.reachedChoiceOrEnding = true
                guard let answer = runtime.randomtestAnswer, let next = try? runtime.answer(answer) else {
                    walk.end = "the answer was not taken"
                    return walk
                }
                moment = next
                continue
            case .choice(let options):
                walk.reachedChoiceOrEnding = true
                guard walk.choices.count < 300 else {
                    walk.end = "300 choices"
                    return walk
                }
                let takeable = options.indices.filter { options[$0].selectable }
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                let index = takeable[Int(random % UInt64(takeable.count))]
                walk.choices.append(index + 1)
                do {
                    moment = try runtime.choose(index)
                } catch {
                    walk.end = "option \(index + 1) refused: \(error)"
                    return walk
                }
            }
        }
    }

    @Test func everyGameOpensAndReachesAChoiceOrAnEndingAlongFivePaths() async throws {
        let ids = Self.ids()
        #expect(ids.count >= 16)
        var report: [String] = []
        var reaching = 0
        await withTaskGroup(of: (String, [Walk], String?).self) { group in
            for id in ids {
                group.addTask {
                    guard let game = try? Self.game(id) else { return (id, [], "cannot read its scenes") }
                    let walks = (1...5).map { Self.walk(game, seed: $0) }
                    let source = await StorySources.open(Self.corpus.appendingPathComponent(id).path, seed: 1)
                    var problem: String?
                    do {
                        let manifest = try StoryDecoder.decodeManifest(try await source.read("story.json"))
                        let beat = try StoryDecoder.decodeBeat(try await source.read("beats/\(manifest.startBeatId).json"), file: "start")
                        if beat.pages.isEmpty { problem = "its start beat has no pages" }
                    } catch {
                        problem = "does not open: \(error)"
                    }
                    return (id, walks, problem)
                }
            }
            for await (id, walks, problem) in group {
                if let problem { Issue.record("\(id): \(problem)") }
                if walks.contains(where: \.reachedChoiceOrEnding) { reaching += 1 }
                for walk in walks {
                    // A game whose author's own lines stop it (a command ChoiceScript lacks, a missing label)
                    // stops saying which scene and line, as ChoiceScript does.
                    if walk.end != "ending", walk.end != "300 choices" {
                        #expect(walk.end.contains(" line "), "\(id): stops without saying where: \(walk.end)")
                    }
                    report.append("\(id)\t\(walk.choices.map(String.init).joined(separator: ","))\t\(walk.end)")
                }
            }
        }
        // All but ALovelySavepoint (its startup runs a save-menu add-on's *sm_init before any choice).
        #expect(reaching >= ids.count - 1, "\(reaching) of \(ids.count) games reach a choice or an ending")
        if let file = ProcessInfo.processInfo.environment["CHOICESCRIPT_CORPUS_REPORT"] {
            try report.sorted().joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
    }
}
