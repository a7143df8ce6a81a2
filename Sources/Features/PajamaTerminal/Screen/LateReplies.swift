/// Replies to the picture queries that come after `GraphicsProbe` stopped waiting (a terminal slow to start,
/// a slow link): curses reads them as keys, and an Escape would quit. `Screen` hands this filter what it
/// reads from an Escape on, and gets back only the keys that were no reply; once the last reply is in,
/// `replies` holds them all (with those of the wait), for `TerminalGraphics.afterLateReplies`.
public struct LateReplies: Sendable {
    /// Every reply so far: those that came during the wait, then the late ones.
    public private(set) var replies: GraphicsReplies

    /// A filter going on from the replies of the wait (`replies`: a reply cut when the wait ended is continued).
    public init(continuing replies: GraphicsReplies = GraphicsReplies()) {
        self.replies = replies
    }

    /// Whether the last reply (the device attributes) has come: nothing more will.
    public var isDone: Bool { replies.isComplete }
    /// Whether a reply was cut off: what comes next continues it.
    public var isPartial: Bool { replies.isPartial }

    /// The keys among `bytes` (an Escape and what was read right after it, or the rest of a cut reply),
    /// in order, the replies taken out. A lone Escape is the Escape key.
    public mutating func keys(in bytes: [UInt8]) -> [UInt8] {
        if bytes == [0x1B], !replies.isPartial { return bytes }
        let before = replies.other.count
        replies.feed(bytes)
        return Array(replies.other[before...])
    }
}
