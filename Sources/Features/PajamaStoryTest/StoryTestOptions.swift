/// What `pajama test` does (docs/testing.md).
public struct StoryTestOptions: Sendable, Equatable {
    /// Random runs, each from the start to an ending, a problem or `maxSteps`.
    public var runs: Int
    /// The seed of the runs' choices (run `i` chooses with a generator seeded from `seed` and `i`) and of the
    /// story's own randomness.
    public var seed: Int
    /// The most beats one run reads before it counts as a loop that never reaches an ending.
    public var maxSteps: Int
    /// Instead of random runs, every distinct story state reachable from the start, breadth first, up to
    /// `maxStates`.
    public var exhaustive: Bool
    public var maxStates: Int
    /// Runs in parallel (each job with a source of its own); the report is the same whatever it is.
    public var jobs: Int

    public init(runs: Int = 1000, seed: Int = 0, maxSteps: Int = 500, exhaustive: Bool = false, maxStates: Int = 10_000, jobs: Int = 1) {
        self.runs = max(0, runs)
        self.seed = seed
        self.maxSteps = max(1, maxSteps)
        self.exhaustive = exhaustive
        self.maxStates = max(1, maxStates)
        self.jobs = max(1, jobs)
    }
}
