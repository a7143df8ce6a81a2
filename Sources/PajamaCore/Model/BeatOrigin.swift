/// The way to a beat of a story that is made as it is read (an ink story, docs/ink.md): what a later session
/// needs to make the same beat again. Native beats have none.
///
/// Saved with the reading progress (the current beat's origin), so resume needs neither the earlier session
/// nor its caches: the story's source rebuilds the beat from `state` when the story is unchanged, else by
/// replaying `choices` from the start.
public struct BeatOrigin: Codable, Sendable, Hashable {
    /// The story's random seed for this reading.
    public var seed: Int
    /// The steps from the story's start: a choice index (0-based), or -1 for "the text went on" (a long run
    /// split into several beats).
    public var steps: [Int]
    /// The runtime's saved state at the start of the beat (ink's own state JSON), when it was kept.
    public var state: String?
    /// The story version `state` belongs to (a state of another version is not used).
    public var version: String?

    public init(seed: Int, steps: [Int], state: String? = nil, version: String? = nil) {
        self.seed = seed
        self.steps = steps
        self.state = state
        self.version = version
    }
}

/// What became of restoring a beat's origin (`StoryContent.restore`).
public enum OriginRestore: Sendable, Equatable {
    /// The way is known again (the source needs nothing, or rebuilt it).
    case restored
    /// The way could not be rebuilt; reading starts from the beginning. The reason is for the reader.
    case failed(String)
}
