import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// The published ink games of docs/ink.md's corpus, kept beside the repository in `../shared/corpora/ink`
/// (or `INK_CORPUS_DIR`): other people's work, mostly without a licence to copy, so never committed here;
/// `Tests/Fixtures/ink-published/manifest.tsv` says where each comes from. CI has the corpus beside the clone:
/// the tests fail, never skip, when it is absent.
///
/// - Every game of the manifest is in the corpus, and every game opens in `pajama play` on its folder (known as
///   ink by its content) and reads along seed 7, choice 1 at every choice, for 30 choices: never exit 2.
/// - Every game plays as bink plays it (bink 0.7.1, PyPI: blade-ink, a port of the official runtime; installed
///   by scripts/install-deps.sh into `.build/bink-venv`, or `BINK_PYTHON`): `scripts/ink-bink.py --published`
///   on the corpus, live, along two seeded paths each and the save/load exchange both ways, with
///   `pajama-ink-play`; no game may differ (a `LIKE`, bink's own known mistakes, is explained by the script).
@Suite(.serialized) struct InkPublishedCorpusEndToEndTests {
    static let fixtureManifest = PackagePaths.root.appendingPathComponent("Tests/Fixtures/ink-published/manifest.tsv")
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["INK_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/ink")
    }
    static let choices = Array(repeating: "1", count: 30).joined(separator: ",")

    /// The corpus's games (its manifest.tsv: id, repository), failing when the corpus is not there.
    static func games() throws -> [(id: String, repository: String)] {
        let manifest = corpus.appendingPathComponent("manifest.tsv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            throw CorpusMissing(message: "no ink corpus at \(corpus.path) (manifest.tsv): CI has it as ../shared/corpora/ink; set INK_CORPUS_DIR")
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 2 ? (String(fields[0]), String(fields[1])) : nil
        }
    }

    struct CorpusMissing: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    @Test func everyGameOfTheManifestIsInTheCorpus() throws {
        let games = try Self.games()
        #expect(games.count >= 30)
        let text = try String(contentsOf: Self.fixtureManifest, encoding: .utf8)
        let repositories = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count == 6 ? String(fields[1]) : nil
        }
        #expect(Set(repositories) == Set(games.map(\.repository)), "the fixture's manifest and the corpus name other games")
        for game in games {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: Self.corpus.appendingPathComponent(game.id).path, isDirectory: &isFolder)
            #expect(exists && isFolder.boolValue, "\(game.id) is not in \(Self.corpus.path)")
        }
    }

    @Test func everyGameOpensAndReadsInPlay() throws {
        let home = try TemporaryDirectory(prefix: "pajama-published")
        defer { home.remove() }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        for game in try Self.games() {
            let folder = Self.corpus.appendingPathComponent(game.id).path
            let result = try ChildProcess.run(
                PackagePaths.executable("pajama").path, ["play", folder, "--seed", "7", "--choices", Self.choices], environment: environment)
            // 0: read to an ending; 1: still reading after the 30 choices ("the choices ran out"); 3: the story
            // itself stopped (an EXTERNAL function without an ink fallback, ink's own runtime error), saying
            // where and why. Never 2: a story that could not be read, or a missing picture that stopped it.
            #expect([0, 1, 3].contains(result.status), "\(game.id): exit \(result.status): \(result.stderr.suffix(400))")
            if result.status == 1 { #expect(result.stderr.contains("the choices ran out after 30"), "\(game.id): \(result.stderr.suffix(400))") }
            if result.status == 3 { #expect(result.stderr.contains("the story stopped at beat"), "\(game.id): \(result.stderr.suffix(400))") }
            #expect(!result.stdout.isEmpty, "\(game.id): printed nothing")
        }
    }

    @Test func everyGamePlaysAsBinkPlaysIt() throws {
        let games = try Self.games()
        let python = ProcessInfo.processInfo.environment["BINK_PYTHON"]
            ?? PackagePaths.root.appendingPathComponent(".build/bink-venv/bin/python").path
        let probe = try? ChildProcess.run(python, ["-c", "import bink"])
        try #require(probe?.status == 0, "bink is not installed at \(python): run scripts/install-deps.sh (it makes .build/bink-venv) or set BINK_PYTHON")
        let script = PackagePaths.root.appendingPathComponent("scripts/ink-bink.py").path
        let result = try ChildProcess.run(
            python, [script, PackagePaths.executable("pajama-ink-play").path, "--published", Self.corpus.path, "--runs", "2"], timeout: 300)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr.suffix(2000))")
        // One line a game, and the totals: every game compared, none differing.
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        #expect(summary.hasSuffix(" 0 differing"), "\(summary)")
        let total = summary.split(separator: "/").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(total == games.count, "bink compared \(total ?? 0) of the \(games.count) games: \(summary)")
    }
}
