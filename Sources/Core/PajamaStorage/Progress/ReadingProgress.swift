import PajamaModel

/// What is saved of a reading: where, the way there, and whether the story was finished.
public struct ReadingProgress: Codable, Sendable, Equatable {
    public var location: StoryLocation
    public var history: [StoryLocation]
    public var finished: Bool
    public var storyVersion: String?
    public var pagesRead: Int
    /// Choices taken in this reading (absent from files written before the end screen: 0).
    public var choicesMade: Int?
    /// The ending beats reached so far, in the order found; kept across restarts (absent from older files).
    public var endingsFound: [String]?
    /// The pages seen so far, oldest first (`SeenPages`); kept across restarts (absent from older files).
    public var seenPages: [SeenPage]?
    /// The origin of the beat at `location`, for a story made as it is read (ink); absent otherwise.
    public var origin: BeatOrigin?

    public init(location: StoryLocation, history: [StoryLocation], finished: Bool = false, storyVersion: String? = nil, pagesRead: Int = 0,
                choicesMade: Int? = nil, endingsFound: [String]? = nil, seenPages: [SeenPage]? = nil, origin: BeatOrigin? = nil) {
        self.location = location
        self.history = history
        self.finished = finished
        self.storyVersion = storyVersion
        self.pagesRead = pagesRead
        self.choicesMade = choicesMade
        self.endingsFound = endingsFound
        self.seenPages = seenPages
        self.origin = origin
    }

    /// The largest count of pages read kept from a file (a reader turning a page a second for 60 years).
    public static let maximumPagesRead = 1 << 31

    /// A count of pages read (or of choices made) outside 0...maximumPagesRead is brought within it (a file
    /// saying Int.max made the next page turn overflow, shown through fuzz-progress); the place is kept.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decode(StoryLocation.self, forKey: .location)
        history = try container.decode([StoryLocation].self, forKey: .history)
        finished = try container.decode(Bool.self, forKey: .finished)
        storyVersion = try container.decodeIfPresent(String.self, forKey: .storyVersion)
        pagesRead = min(max(0, try container.decode(Int.self, forKey: .pagesRead)), Self.maximumPagesRead)
        choicesMade = try container.decodeIfPresent(Int.self, forKey: .choicesMade).map { min(max(0, $0), Self.maximumPagesRead) }
        endingsFound = try container.decodeIfPresent([String].self, forKey: .endingsFound)
        seenPages = try container.decodeIfPresent([SeenPage].self, forKey: .seenPages)
        origin = try container.decodeIfPresent(BeatOrigin.self, forKey: .origin)
    }
}
