import Foundation
import PajamaLoading
import PajamaModel
import PajamaFormats
import PajamaSugarCube
import PajamaTestSupport
import PajamaTwine
import Testing

/// The SugarCube stories of `../shared/corpora/sugarcube` (or `SUGARCUBE_CORPUS_DIR`; other people's work,
/// never committed here; its README says where each comes from). CI has the corpus beside the clone: the
/// test fails, never skips, when it is absent. Every story opens as a SugarCube story, its start offers a
/// choice or is an ending, and it is read along five seeded paths of up to 60 links without a crash: a path
/// ends at an ending, or stops saying why (a message naming the passage), or is still going.
/// `SUGARCUBE_CORPUS_REPORT=FILE` writes each story's figures and paths (docs/sugarcube.md's table).
@Suite struct SugarCubeCorpusTests {
    static var corpus: URL {
        if let given = ProcessInfo.processInfo.environment["SUGARCUBE_CORPUS_DIR"] { return URL(fileURLWithPath: given) }
        return PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/sugarcube")
    }

    static func ids() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) else {
            Issue.record("no SugarCube corpus at \(corpus.path): CI has it as ../shared/corpora/sugarcube; set SUGARCUBE_CORPUS_DIR")
            return []
        }
        return names.filter { var folder: ObjCBool = false; return FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0).path, isDirectory: &folder) && folder.boolValue }.sorted()
    }

    static let longestPath = 60

    struct Row: Sendable {
        var id: String
        var passages = 0
        var macros: [String] = []
        var unsupported: [String] = []
        var scriptErrors = 0
        var endings = 0
        var stops: [String] = []
        var paths: [[Int]] = []
        var milliseconds = 0
    }

    @Test func everySugarCubeStoryOpensAndReadsAlongFiveSeededPaths() async throws {
        let names = Self.ids()
        #expect(names.count >= 20)
        let rows = await withTaskGroup(of: Row?.self) { group in
            for name in names { group.addTask { await Self.read(name) } }
            var rows: [Row] = []
            for await row in group { if let row { rows.append(row) } }
            return rows.sorted { $0.id < $1.id }
        }
        #expect(rows.count == names.count)
        if let report = ProcessInfo.processInfo.environment["SUGARCUBE_CORPUS_REPORT"] {
            let lines = rows.map { row in
                [row.id, "\(row.passages)", row.macros.joined(separator: " "), row.unsupported.joined(separator: " "), "\(row.scriptErrors)", "\(row.endings)/5",
                 row.stops.joined(separator: " | "), row.paths.map { $0.map { String($0 + 1) }.joined(separator: ",") }.joined(separator: ";"), "\(row.milliseconds) ms"].joined(separator: "\t")
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: report, atomically: true, encoding: .utf8)
        }
    }

    /// One story: opened through the format registry, then walked in process.
    static func read(_ name: String) async -> Row? {
        let started = ContinuousClock.now
        let folder = corpus.appendingPathComponent(name).path
        let source = await StorySources.open(folder, seed: 1)
        guard let made = source as? any StoryFilesSource, made.formatName == "sugarcube" else {
            Issue.record("\(name) does not open as a SugarCube story")
            return nil
        }
        let files = made.storyFiles
        do {
            _ = try await source.read("story.json")
            let start = try StoryDecoder.decodeBeat(try await source.read("beats/start.json"), file: "beats/start.json")
            #expect(start.origin?.stopped == nil, "\(name): the start stops: \(start.origin?.stopped ?? "")")
        } catch {
            Issue.record("\(name) does not open: \(error)")
            return nil
        }
        var bytes: [UInt8] = []
        for file in files { bytes += ((try? FolderStorySource(folder: folder).readSync(file)) ?? []) + [0x0A] }
        guard let story = try? TwineFileKind.parse(String(decoding: bytes, as: UTF8.self)) else {
            Issue.record("\(name) does not parse")
            return nil
        }
        var row = Row(id: name, passages: story.passages.count)
        var macros = Set<String>()
        for passage in story.passages where !passage.tags.contains("script") && !passage.tags.contains("stylesheet") {
            var rest = Substring(passage.text)
            while let open = rest.range(of: "<<") {
                let name = rest[open.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "=" }
                if !name.isEmpty { macros.insert(String(name)) }
                rest = rest[open.upperBound...]
            }
        }
        row.macros = macros.sorted()
        var unsupported = Set<String>()
        // One engine per story, as a reading has: the Story JavaScript runs once, each path starts afresh.
        let runtime = SugarCubeRuntime(story: story, seed: 1)
        row.scriptErrors = runtime.scriptErrors.count
        for seed in 1...5 {
            runtime.reseed(seed)
            var generator = SeededGenerator(seed: UInt64(seed))
            var moment = runtime.start()
            #expect(moment.error == nil, "\(name), seed \(seed): the start stops: \(moment.error ?? "")")
            var path: [Int] = []
            for _ in 0..<Self.longestPath {
                unsupported.formUnion(moment.unsupported)
                if let error = moment.error {
                    #expect(error.contains { $0.isLetter }, "\(name): stops saying nothing")
                    row.stops.append("seed \(seed), passage \"\(moment.passage)\": \(error)")
                    break
                }
                if moment.links.isEmpty {
                    row.endings += 1
                    break
                }
                let pick = Int.random(in: 0..<min(moment.links.count, StoryDecoder.choiceRange.upperBound), using: &generator)
                path.append(pick)
                do {
                    moment = try runtime.choose(pick)
                } catch {
                    Issue.record("\(name), seed \(seed): link \(pick + 1) of \(moment.links.count) refused: \(error)")
                    break
                }
            }
            row.paths.append(path)
        }
        row.unsupported = unsupported.sorted()
        row.milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
        return row
    }
}
