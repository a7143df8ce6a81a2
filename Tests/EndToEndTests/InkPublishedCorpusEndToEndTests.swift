import Foundation
import PajamaCore
import PajamaTestSupport
import Testing

/// The published ink games of docs/ink.md's corpus, read by the real binary: `pajama play` on the story's folder
/// (so the folder is known as ink by its content), seed 7, choice 1 at every choice page for 30 choices at
/// most. The transcript and the exit status must be the ones recorded in the corpus's `expected/` (checked
/// against bink when recorded, scripts/ink-bink.sh --published). The games are other people's work, fetched
/// from their repositories: they are kept out of this repository, in `../shared/ink-published` (or
/// `INK_CORPUS_DIR`); `Tests/Fixtures/ink-published/manifest.tsv` says where each comes from. Skipped with a
/// message when the corpus is absent.
@Suite struct InkPublishedCorpusEndToEndTests {
    static let manifest = PackagePaths.root.appendingPathComponent("Tests/Fixtures/ink-published/manifest.tsv")
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["INK_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/ink-published")
    }
    static let choices = Array(repeating: "1", count: 30).joined(separator: ",")

    /// The manifest's rows: id and licence.
    static func rows() throws -> [(id: String, licence: String)] {
        let text = try String(contentsOf: manifest, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count == 6 ? (String(fields[0]), String(fields[4])) : nil
        }
    }

    /// The stories of the corpus that have a recorded transcript (none when the corpus is absent).
    static func recorded() -> [String] {
        let expected = corpus.appendingPathComponent("expected")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: expected.path) else { return [] }
        return names.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
    }

    @Test func theManifestSaysWhereEachStoryComesFromAndEveryRecordedOneIsInIt() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 20)
        let ids = Set(rows.map(\.id))
        let recorded = Self.recorded()
        if recorded.isEmpty { print("InkPublishedCorpusEndToEndTests: no corpus at \(Self.corpus.path) (set INK_CORPUS_DIR): skipped") }
        for id in recorded {
            #expect(ids.contains(id), "\(id) is not in the manifest")
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.appendingPathComponent(id).path)
            #expect(files.contains { $0.uppercased().hasPrefix("LICEN") }, "\(id) has no licence file")
        }
    }

    @Test func playReadsEachStoryAsRecorded() throws {
        for id in Self.recorded() {
            let home = try TemporaryDirectory(prefix: "pajama-published")
            defer { home.remove() }
            var environment = ProcessInfo.processInfo.environment
            for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
            let folder = Self.corpus.appendingPathComponent(id).path
            let result = try ChildProcess.run(
                PackagePaths.executable("pajama").path, ["play", folder, "--seed", "7", "--choices", Self.choices], environment: environment)
            let expected = Self.corpus.appendingPathComponent("expected")
            let transcript = try String(contentsOf: expected.appendingPathComponent("\(id).txt"), encoding: .utf8)
            let status = try String(contentsOf: expected.appendingPathComponent("\(id).status"), encoding: .utf8)
            #expect("\(result.status)" == status.trimmingCharacters(in: .whitespacesAndNewlines), "\(id): \(result.stderr)")
            #expect(result.stdout == transcript, "\(id): the transcript differs from expected/\(id).txt")
        }
    }
}
