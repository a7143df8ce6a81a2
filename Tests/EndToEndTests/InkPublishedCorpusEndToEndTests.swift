import Foundation
import PajamaCore
import PajamaTestSupport
import Testing

/// Every committed published ink game (Tests/Fixtures/ink-published, docs/ink.md "Published ink games") read
/// by the real binary: `pajama play` on the story's folder (so the folder is known as ink by its content), seed
/// 7, choice 1 at every choice page for 30 choices at most. The transcript and the exit status must be the ones
/// recorded in `expected/` (checked against bink when recorded, scripts/ink-bink.sh --published).
@Suite struct InkPublishedCorpusEndToEndTests {
    static let corpus = PackagePaths.root.appendingPathComponent("Tests/Fixtures/ink-published")
    static let choices = Array(repeating: "1", count: 30).joined(separator: ",")

    /// The committed stories of the manifest.
    static func committed() throws -> [String] {
        let manifest = try String(contentsOf: corpus.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count == 6 && fields[5] == "committed" ? String(fields[0]) : nil
        }
    }

    @Test func theManifestCommitsAtLeastFiveStoriesEachWithItsLicence() throws {
        let stories = try Self.committed()
        #expect(stories.count >= 5)
        for id in stories {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.appendingPathComponent(id).path)
            #expect(files.contains { $0.uppercased().hasPrefix("LICEN") }, "\(id) has no licence file")
        }
    }

    @Test(arguments: try committed())
    func playReadsTheStoryAsRecorded(id: String) throws {
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
