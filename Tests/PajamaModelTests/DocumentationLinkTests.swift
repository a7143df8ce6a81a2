import Foundation
import PajamaTestSupport
import Testing

/// The documents point only at files that are in the repository: markdown links, and `.md` paths
/// quoted in backticks (resolved from the document's folder, then from the repository root).
@Suite struct DocumentationLinkTests {
    static var documents: [String] {
        let root = PackagePaths.root.path
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md", "Stories/README.md"] + docs.sorted()
    }

    /// Relative targets named by `text`: `[..](target)` links and backticked `something.md` paths.
    static func targets(in text: String) -> [String] {
        var found: [String] = []
        let patterns = [#"\]\(([^)#\s]+)(#[^)]*)?\)"#, #"`([A-Za-z0-9_./-]+\.md)`"#]
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let target = String(text[range])
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                found.append(target)
            }
        }
        return found
    }

    @Test(arguments: documents)
    func everyLinkedFileExists(_ document: String) throws {
        let root = PackagePaths.root
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let folder = root.appendingPathComponent(document).deletingLastPathComponent()
        for target in Self.targets(in: text) {
            let fromDocument = folder.appendingPathComponent(target).standardizedFileURL.path
            let fromRoot = root.appendingPathComponent(target).standardizedFileURL.path
            let exists = FileManager.default.fileExists(atPath: fromDocument) || FileManager.default.fileExists(atPath: fromRoot)
            #expect(exists, "\(document) points at \(target), which is not in the repository")
        }
    }
}
