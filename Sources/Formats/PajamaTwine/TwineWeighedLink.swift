/// A passage's `[[link]]` as a moment weighed it (Harlowe's and SugarCube's runtimes): shown, or kept back by
/// the condition it is under, for `pajama test`'s choices never offered. Known by its passage and its markup
/// as written, so the same link meets itself from run to run.
public struct TwineWeighedLink: Sendable, Hashable {
    public var passage: String
    /// The link's text and target as written.
    public var text: String
    public var target: String
    /// Why it was not shown (the condition it is under, in the format's words); nil: shown.
    public var keptBack: String?

    public init(passage: String, text: String, target: String, keptBack: String? = nil) {
        self.passage = passage
        self.text = text
        self.target = target
        self.keptBack = keptBack
    }
}
