import PajamaModel

/// Where the reader has been, for instant back navigation with bounded memory.
///
/// Keeps the beat content of the last `contentKeptFor` entries (so going back to them needs no load)
/// and only the locations beyond that, at most `limit` entries in all. Going back moves a cursor; a
/// new move after going back drops the forward part (like a browser).
public struct ReadingHistory: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var location: StoryLocation
        /// The beat, while the entry is recent enough to keep it.
        public var beat: Beat?
        /// The text of the choice taken on this page (a choice page left by a choice in this session).
        public var choice: String? = nil
    }

    public let limit: Int
    public let contentKeptFor: Int
    public private(set) var entries: [Entry] = []
    /// Index of the current location in `entries`.
    public private(set) var cursor = -1

    public init(limit: Int = 500, contentKeptFor: Int = 20) {
        self.limit = max(1, limit)
        self.contentKeptFor = max(0, contentKeptFor)
    }

    public var current: Entry? { entries.indices.contains(cursor) ? entries[cursor] : nil }
    public var canGoBack: Bool { cursor > 0 }
    public var locations: [StoryLocation] { entries.map(\.location) }

    /// Records a move to `location`; drops any forward history first.
    public mutating func push(_ location: StoryLocation, beat: Beat?) {
        if cursor < entries.count - 1 { entries.removeSubrange((cursor + 1)...) }
        if entries.last?.location == location { entries[entries.count - 1].beat = beat ?? entries[entries.count - 1].beat; return }
        entries.append(Entry(location: location, beat: beat))
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        cursor = entries.count - 1
        // Bound memory: only the most recent entries keep their content. Every entry before the window lost
        // its content when it left it, so only the one leaving now is cleared (a push costs the same however
        // long the history is).
        let keepFrom = entries.count - contentKeptFor
        if keepFrom > 0 { entries[keepFrom - 1].beat = nil }
    }

    /// Replaces the current entry's location (revealing a line moves within a page, not to a new one).
    public mutating func updateCurrent(_ location: StoryLocation) {
        guard entries.indices.contains(cursor) else { return }
        entries[cursor].location = location
    }

    /// Notes the choice taken on the current page (its move is committed: the next `push` follows).
    public mutating func noteChoice(_ text: String) {
        guard entries.indices.contains(cursor) else { return }
        entries[cursor].choice = text
    }

    /// Steps back to the entry at `index` (before the current one); returns it, or nil when there is none.
    public mutating func back(to index: Int) -> Entry? {
        guard index >= 0, index < cursor else { return nil }
        cursor = index
        return entries[cursor]
    }

    /// Steps back; returns the entry to show, or nil at the start.
    public mutating func back() -> Entry? {
        guard canGoBack else { return nil }
        cursor -= 1
        return entries[cursor]
    }

    /// Drops the content kept for the beats `ids` (nil: every beat): their files changed, so going back to
    /// them loads them again.
    public mutating func forgetContent(of ids: Set<String>?) {
        for i in entries.indices where entries[i].beat != nil && (ids?.contains(entries[i].location.beatId) ?? true) {
            entries[i].beat = nil
        }
    }

    /// Restores saved locations (no content), the last one current.
    public mutating func restore(_ locations: [StoryLocation]) {
        entries = locations.suffix(limit).map { Entry(location: $0, beat: nil) }
        cursor = entries.count - 1
    }

    public mutating func clear() {
        entries = []
        cursor = -1
    }
}
