/// How much an asset matters to reading (see docs/story-format.md, "Criticality").
///
/// Ordered: `optional < important < critical`, so the preloader can sort by it.
public enum Criticality: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Loaded when there is room; never waited for.
    case optional = 0
    /// Preloaded ahead of optional assets; never waited for.
    case important = 1
    /// Preloaded first; entering a page waits until every critical asset of it is loaded.
    case critical = 2

    /// Parses the story.json spelling (`optional`, `important`, `critical`).
    public init?(name: String) {
        switch name {
        case "optional": self = .optional
        case "important": self = .important
        case "critical": self = .critical
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .optional: "optional"
        case .important: "important"
        case .critical: "critical"
        }
    }

    public static func < (lhs: Criticality, rhs: Criticality) -> Bool { lhs.rawValue < rhs.rawValue }
}
