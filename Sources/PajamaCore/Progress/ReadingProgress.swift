/// What is saved of a reading: where, the way there, and whether the story was finished.
public struct ReadingProgress: Codable, Sendable, Equatable {
    public var location: StoryLocation
    public var history: [StoryLocation]
    public var finished: Bool
    public var storyVersion: String?
    public var pagesRead: Int

    public init(location: StoryLocation, history: [StoryLocation], finished: Bool = false, storyVersion: String? = nil, pagesRead: Int = 0) {
        self.location = location
        self.history = history
        self.finished = finished
        self.storyVersion = storyVersion
        self.pagesRead = pagesRead
    }
}
