import Foundation
import PajamaCore
import PajamaTestSupport
import PajamaTwine
import Testing
@testable import PajamaTwineBridge

/// The published Twine games of docs/twine.md's corpus (`../shared/twine-published`, or `TWINE_CORPUS_DIR`;
/// skipped with a message when absent; `Tests/Fixtures/twine-published/manifest.tsv` says where each comes
/// from). Each opens (or, in another format with scripts, is refused with the format's name), and each
/// Harlowe story is read along five seeded paths of up to 200 links: at least 70% of them reach an ending
/// (a passage without links, or whose links all go back to the start) on some path.
/// `TWINE_CORPUS_REPORT=FILE` writes the table's figures and each path's links (for `pajama play --choices`).
@Suite struct TwineCorpusTests {
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["TWINE_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/twine-published")
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
    }

    @Test func everyStoryOpensAndMostHarloweStoriesReachAnEnding() async throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted(), !names.isEmpty else {
            print("TwineCorpusTests: no corpus at \(Self.corpus.path) (set TWINE_CORPUS_DIR): skipped")
            return
        }
        var rows: [Row] = []
        for name in names where !name.hasPrefix(".") {
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
                let (path, ended) = Self.walk(story, seed: seed)
                row.paths.append(path)
                if ended { row.endings += 1 }
            }
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
        #expect(!harlowe.isEmpty)
        #expect(Double(ending.count) >= 0.7 * Double(harlowe.count), "\(ending.count) of \(harlowe.count) Harlowe stories reach an ending")
    }

    /// A seeded walk of up to 200 links; whether it reached an ending.
    static func walk(_ story: TwineStory, seed: Int) -> ([Int], Bool) {
        let runtime = HarloweRuntime(story: story, seed: seed)
        var generator = SeededGenerator(seed: UInt64(seed))
        var moment = runtime.start()
        var path: [Int] = []
        for _ in 0..<200 {
            if moment.error != nil { return (path, false) }
            let links = Array(moment.links.prefix(StoryDecoder.choiceRange.upperBound))
            if links.isEmpty || links.allSatisfy({ $0.action == .goto(story.start) }) { return (path, true) }
            let pick = Int.random(in: 0..<links.count, using: &generator)
            path.append(pick)
            guard let next = try? runtime.choose(pick) else { return (path, false) }
            moment = next
        }
        return (path, false)
    }
}
