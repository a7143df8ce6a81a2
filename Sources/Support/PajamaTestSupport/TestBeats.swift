import PajamaModel

/// A beat of `lines` text lines on one page, then `next`: the tests' smallest story content (the
/// loading and the reading tests share it).
package func beat(_ id: String, lines: Int = 1, next: String? = nil) -> Beat {
    Beat(id: id, pages: [Page(id: "p", kind: .text(lines: (0..<lines).map { "line \($0) of \(id)" }))], nextBeatId: next)
}

/// An asset path the test knows is valid (crashes on a bad one, which is the test's own mistake).
package func path(_ s: String) -> AssetPath { try! AssetPath(validating: s) }
