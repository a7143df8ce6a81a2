/// The beats around the reading position that should be in memory: up to `behind` beats back along
/// the history, and every beat within `ahead` steps forward (every choice target counts), nearest first.
/// `BeatPreloader` walks it, loading each level of beats before it can see the next.
public struct PreloadWindow: Sendable, Equatable {
    public var behind: Int
    public var ahead: Int

    public init(behind: Int = 2, ahead: Int = 5) {
        self.behind = max(0, behind)
        self.ahead = max(0, ahead)
    }
}
