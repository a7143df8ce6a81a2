import Foundation
import PajamaTestSupport
import Testing

/// docs/loading.md opens with a table from each seed concept to the type and file that hold it here:
/// every row's file exists and declares that type (or function), and the seed names a newcomer searches
/// for have files of their own.
@Suite struct SeedNameTableTests {
    struct Row {
        var concept: String
        var name: String
        var file: String
    }

    /// The rows of the first table in docs/loading.md (header and separator left out).
    static func rows() throws -> [Row] {
        let text = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/loading.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("|") }) else { return [] }
        let table = lines[start...].prefix { $0.hasPrefix("|") }.dropFirst(2)
        return table.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            return Row(concept: cells.first ?? "", name: cells.count > 1 ? cells[1] : "", file: cells.count > 2 ? cells[2] : "")
        }
    }

    @Test func theTableComesFirstAndNamesTheSeedConcepts() throws {
        let text = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/loading.md"), encoding: .utf8)
        let firstParagraphs = text.components(separatedBy: "\n\n").prefix(3).joined(separator: "\n\n")
        #expect(firstParagraphs.contains("| seed concept |"), "docs/loading.md does not open with the seed table")
        let concepts = try Self.rows().map(\.concept)
        for seed in ["StoryContentManager", "BeatStorageCoordinator", "InMemoryBeatCache", "BeatPreloader", "AssetPreloader", "LoadingStateManager"] {
            #expect(concepts.contains { $0.hasPrefix(seed) }, "docs/loading.md's table has no row for \(seed)")
        }
    }

    @Test func everyRowsFileDeclaresItsName() throws {
        let rows = try Self.rows()
        #expect(!rows.isEmpty)
        for row in rows {
            let url = PackagePaths.root.appendingPathComponent(row.file)
            guard let source = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("docs/loading.md: the row \(row.concept) names \(row.file), which is not in the repository")
                continue
            }
            let declaration = try NSRegularExpression(pattern: #"\b(struct|class|actor|enum|protocol|func) "# + NSRegularExpression.escapedPattern(for: row.name) + #"\b"#)
            let found = declaration.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil
            #expect(found, "docs/loading.md: \(row.file) does not declare \(row.name) (row \(row.concept))")
        }
    }

    /// The seed names have a file of their own, named after the type it declares.
    @Test(arguments: ["AssetPreloader", "LoadingStateManager"])
    func theSeedNameHasItsOwnFile(_ name: String) throws {
        let row = try #require(try Self.rows().first { $0.concept.hasPrefix(name) })
        #expect(row.name == name)
        #expect(row.file.hasSuffix("/\(name).swift"))
    }
}
