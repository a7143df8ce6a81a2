/// Where a reader is: beat, page and the number of revealed lines minus one.
///
/// Saved progress, history, co-reading and `--start` all use this triple.
public struct StoryLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var beatId: String
    public var pageId: String
    /// Index of the last revealed line on a text page; always 0 on title and choice pages.
    public var lineIndex: Int

    public init(beatId: String, pageId: String, lineIndex: Int = 0) {
        self.beatId = beatId
        self.pageId = pageId
        self.lineIndex = lineIndex
    }

    public var description: String { "\(beatId)/\(pageId)#\(lineIndex)" }
}
