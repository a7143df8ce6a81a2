/// A choice the story weighed when it reached its choice point: where that is, its text, and whether it was
/// offered or kept back (an invisible default choice is never noted: no reader sees one).
public struct WeighedChoice: Hashable, Comparable, Sendable {
    public enum Outcome: String, Sendable, Comparable {
        case offered
        /// Its condition (`* {x > 2} ...`) was false.
        case conditionFalse
        /// A once-only choice (`*`) already taken.
        case alreadyTaken

        public static func < (a: Outcome, b: Outcome) -> Bool { a.rawValue < b.rawValue }
    }

    /// The choice point's path (`knot.stitch.0.3`).
    public var path: String
    /// Its text as it was made there (start and choice-only content).
    public var text: String
    public var outcome: Outcome

    public init(path: String, text: String, outcome: Outcome) {
        self.path = path
        self.text = text
        self.outcome = outcome
    }

    /// Where a choice was weighed and how it came out, as the runtime notes it.
    struct Key: Hashable {
        let point: ObjectIdentifier
        let outcome: Outcome
    }

    public static func < (a: WeighedChoice, b: WeighedChoice) -> Bool {
        (a.path, a.outcome, a.text) < (b.path, b.outcome, b.text)
    }
}
