import PajamaModel

/// One page a reader has seen: its beat and page ids (lines do not count).
public struct SeenPage: Codable, Sendable, Hashable {
    public var beat: String
    public var page: String

    public init(beat: String, page: String) {
        self.beat = beat
        self.page = page
    }

    public init(_ location: StoryLocation) {
        self.init(beat: location.beatId, page: location.pageId)
    }
}

/// The pages a reader has seen of one story, across sessions and restarts (kept in the progress file as
/// `seenPages`, oldest first). Bounded: past `limit` pages the ones seen longest ago are forgotten, so a
/// long story never grows the progress file without end.
public struct SeenPages: Sendable, Equatable {
    /// The most pages remembered (about 60 KB of JSON at 30 bytes a page).
    public static let limit = 2000

    /// Oldest first; each page once.
    public private(set) var pages: [SeenPage] = []
    private var members: Set<SeenPage> = []
    /// How many remembered pages each beat has (so `beatCount` is read at once on every page entered).
    private var pagesPerBeat: [String: Int] = [:]

    /// The pages of a progress file (nil: a file written before seen pages were kept, or none); duplicates
    /// are dropped and only the newest `limit` kept.
    public init(_ saved: [SeenPage]? = nil) {
        for page in saved ?? [] { insert(page) }
    }

    public func contains(_ location: StoryLocation) -> Bool { members.contains(SeenPage(location)) }

    /// Remembers `page` as the newest one seen; returns false when it had been seen already.
    @discardableResult
    public mutating func insert(_ page: SeenPage) -> Bool {
        if members.contains(page) {
            pages.removeAll { $0 == page }
            pages.append(page)
            return false
        }
        members.insert(page)
        pages.append(page)
        pagesPerBeat[page.beat, default: 0] += 1
        if pages.count > Self.limit {
            let forgotten = pages.removeFirst()
            members.remove(forgotten)
            if pagesPerBeat[forgotten.beat] == 1 {
                pagesPerBeat[forgotten.beat] = nil
            } else {
                pagesPerBeat[forgotten.beat, default: 1] -= 1
            }
        }
        return true
    }

    /// How many distinct beats have a seen page (kept as pages come and go: the reader asks on every page).
    public var beatCount: Int { pagesPerBeat.count }
}
