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

    public init(location: StoryLocation, history: [StoryLocation], finished: Bool = false, storyVersion: String? = nil, pagesRead: Int = 0,
                choicesMade: Int? = nil, endingsFound: [String]? = nil, seenPages: [SeenPage]? = nil) {
        self.location = location
        self.history = history
        self.finished = finished
        self.storyVersion = storyVersion
        self.pagesRead = pagesRead
        self.choicesMade = choicesMade
        self.endingsFound = endingsFound
        self.seenPages = seenPages
    }
}
