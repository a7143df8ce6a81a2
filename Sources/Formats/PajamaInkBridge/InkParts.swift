import PajamaJSON

/// An ink story's knots and stitches by name, for `pajama test`'s coverage: every one in the compiled
/// JSON, and the ones an ink path is in (`knot.stitch.0.g-0` is in `knot` and `knot.stitch`).
enum InkParts {
    /// The knots and stitches of a compiled ink document, in its order (`knot`, `knot.stitch`).
    static func all(in document: JSON) -> [String] {
        guard let root = document["root"]?.arrayValue, let named = root.last?.objectValue else { return [] }
        var parts: [String] = []
        for (knot, content) in named where isName(Substring(knot)) {
            guard case .array = content else { continue }
            parts.append(knot)
            guard let stitches = content.arrayValue?.last?.objectValue else { continue }
            for (stitch, inner) in stitches where isName(Substring(stitch)) {
                if case .array = inner { parts.append("\(knot).\(stitch)") }
            }
        }
        return parts
    }

    /// The knot and stitch an ink path is in; none for the story's top, before its first knot.
    static func parts(ofPath path: String) -> [String] {
        let components = path.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard let knot = components.first, isName(knot) else { return [] }
        guard components.count > 1, isName(components[1]) else { return [String(knot)] }
        return [String(knot), "\(knot).\(components[1])"]
    }

    /// A name an author gave (a knot, a stitch), not one the compiler made: an index, a gather (`g-0`), a
    /// choice (`c-0`, `s`), a flag (`#f`), a temporary (`$r1`), the global declarations.
    static func isName(_ component: Substring) -> Bool {
        guard let first = component.first, !first.isNumber else { return false }
        if ["s", "b", "global decl"].contains(component) || first == "$" || first == "#" { return false }
        if component.hasPrefix("c-") || component.hasPrefix("g-"), component.dropFirst(2).allSatisfy(\.isNumber) { return false }
        return true
    }
}
