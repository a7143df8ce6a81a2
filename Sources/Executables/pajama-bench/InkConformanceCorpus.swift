import Foundation
import PajamaJSON
import PajamaTestSupport

/// The ink conformance corpus (../shared/ink-conformance beside the project, or $INK_CONFORMANCE_DIR).
enum InkConformanceCorpus {
    static var directory: URL? {
        let candidates = [ProcessInfo.processInfo.environment["INK_CONFORMANCE_DIR"].map { URL(fileURLWithPath: $0) },
                          PackagePaths.root.deletingLastPathComponent().appendingPathComponent("shared/ink-conformance")]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("compiled").path) }
    }

    /// The largest compiled runtime story (the `compiler/` folders test the compiler, not the runtime).
    static func largestRuntimeStory(in corpus: URL) -> (name: String, url: URL, size: Int)? {
        let compiled = corpus.appendingPathComponent("compiled")
        let enumerator = FileManager.default.enumerator(atPath: compiled.path)
        var best: (name: String, url: URL, size: Int)?
        while let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".ink.json"), !relative.split(separator: "/").contains("compiler") else { continue }
            let url = compiled.appendingPathComponent(relative)
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
            if size > best?.size ?? -1 { best = (relative, url, size) }
        }
        return best
    }

    /// The knots and stitches of a compiled story (`knot`, `knot.stitch`): the named containers of the root
    /// and of each knot, without the compiler's own names (weave points, choices) and the global declarations.
    static func entryPoints(ofCompiledStory text: String) -> [String] {
        // The parser skips inklecate's byte-order mark and takes its unpaired surrogates.
        guard let document = try? JSONParser.parse(text, options: .ink),
            let root = document["root"]?.arrayValue, let last = root.last, case .object(let members) = last
        else { return [] }
        let knots = Dictionary(members, uniquingKeysWith: { first, _ in first })
        func isUserName(_ name: String) -> Bool {
            !name.hasPrefix("#") && !name.hasPrefix("$") && name != "global decl"
                && name.range(of: #"^[cgs]-?\d*$"#, options: .regularExpression) == nil
        }
        var paths: [String] = []
        for knot in knots.keys.sorted() where isUserName(knot) {
            paths.append(knot)
            if let last = knots[knot]?.arrayValue?.last, case .object(let members) = last {
                let stitches = Dictionary(members, uniquingKeysWith: { first, _ in first })
                paths += stitches.keys.sorted().filter { isUserName($0) && stitches[$0]?.arrayValue != nil }.map { "\(knot).\($0)" }
            }
        }
        return paths
    }
}
