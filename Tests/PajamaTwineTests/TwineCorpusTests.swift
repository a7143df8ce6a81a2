import Foundation
import PajamaModel
import PajamaTestSupport
import PajamaTwine
import Testing
@testable import PajamaTwineBridge

/// The published Harlowe games of docs/twine.md's corpus, kept beside the repository in
/// `../shared/corpora/harlowe` (or `TWINE_CORPUS_DIR`; other people's work, never committed here;
/// `Tests/Fixtures/twine-published/manifest.tsv` says where each comes from). CI has the corpus beside the
/// clone: the test fails, never skips, when it is absent. Every story of the corpus's manifest opens, and is
/// read along five seeded paths of up to 200 links: on some path it reaches an ending (a passage without
/// links, or whose links all go back to the start), or the reading stops saying why (a message naming the
/// passage and what Pajama cannot do there), never silently.
/// `TWINE_CORPUS_REPORT=FILE` writes the table's figures and each path's links (for `pajama play --choices`).
@Suite struct TwineCorpusTests {
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["TWINE_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/harlowe")
    }

    struct Row {
        var id: String
        var opens: String
        var format: String
        var passages = 0
        var macros: [String] = []
        var unsupported: [String] = []
        var endings = 0
        var paths: [[Int]] = []
        /// Why a path stopped before an ending, when one did with a message.
        var why: String?
    }

    /// The ids of the corpus's manifest.tsv, failing when the corpus is not there.
    static func ids() throws -> [String] {
        let manifest = corpus.appendingPathComponent("manifest.tsv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            Issue.record("no Harlowe corpus at \(corpus.path) (manifest.tsv): CI has it as ../shared/corpora/harlowe; set TWINE_CORPUS_DIR")
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }

    @Test func everyHarloweStoryOpensAndReachesAnEndingOrSaysWhy() async throws {
        let names = try Self.ids()
        #expect(names.count >= 12)
        var rows: [Row] = []
        for name in names {
            let folder = Self.corpus.appendingPathComponent(name).path
            let source = try #require(TwineStorySource.local(folder, seed: 0), "\(name) is not known as a Twine story")
            let bytes = try await source.bytes()
            let story = try TwineFileKind.parse(String(decoding: bytes, as: UTF8.self))
            let scan = TwineScan(story)
            var row = Row(id: name, opens: "yes", format: [story.format, story.formatVersion].compactMap { $0 }.joined(separator: " "))
            row.passages = story.passages.count
            row.macros = scan.macroCounts.keys.sorted()
            row.unsupported = scan.unsupported
            do {
                _ = try await source.read("story.json")
            } catch {
                #expect(story.formatKind != .harlowe, "\(name): \(error)")
                row.opens = "refused (\(story.formatKind.rawValue))"
                rows.append(row)
                continue
            }
            for seed in 1...5 {
                let (path, ended, why) = Self.walk(story, seed: seed)
                row.paths.append(path)
                if ended { row.endings += 1 }
                if let why, row.why == nil { row.why = why }
            }
            #expect(row.endings > 0 || row.why != nil, "\(name): none of 5 paths of 200 links reaches an ending or stops saying why")
            if let why = row.why { #expect(!why.isEmpty && why.contains(where: \.isLetter), "\(name): stops saying nothing") }
            rows.append(row)
        }
        let harlowe = rows.filter { $0.format.lowercased().hasPrefix("harlowe") || $0.format.isEmpty }
        let ending = harlowe.filter { $0.endings > 0 }
        if let report = ProcessInfo.processInfo.environment["TWINE_CORPUS_REPORT"] {
            let lines = rows.map { row in
                [row.id, row.opens, row.format, "\(row.passages)", row.macros.joined(separator: " "), row.unsupported.joined(separator: " "), "\(row.endings)/5",
                 row.paths.map { $0.map { String($0 + 1) }.joined(separator: ",") }.joined(separator: ";")].joined(separator: "\t")
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: report, atomically: true, encoding: .utf8)
        }
        #expect(harlowe.count == names.count, "every story of the Harlowe corpus is Harlowe")
        #expect(Double(ending.count) >= 0.7 * Double(harlowe.count), "\(ending.count) of \(harlowe.count) Harlowe stories reach an ending")
    }

    /// A seeded walk of up to 200 links; whether it reached an ending, and why it stopped before one when the
    /// runtime said.
    static func walk(_ story: TwineStory, seed: Int) -> ([Int], Bool, String?) {
        let runtime = HarloweRuntime(story: story, seed: seed)
        var generator = SeededGenerator(seed: UInt64(seed))
        var moment = runtime.start()
        var path: [Int] = []
        for _ in 0..<200 {
            if let error = moment.error { return (path, false, "passage \"\(moment.passage)\": \(error)") }
            let links = Array(moment.links.prefix(StoryDecoder.choiceRange.upperBound))
            if links.isEmpty || links.allSatisfy({ $0.action == .goto(story.start) }) { return (path, true, nil) }
            let pick = Int.random(in: 0..<links.count, using: &generator)
            path.append(pick)
            do {
                moment = try runtime.choose(pick)
            } catch {
                return (path, false, "passage \"\(moment.passage)\", link \(pick + 1): \(error)")
            }
        }
        return (path, false, nil)
    }
}
