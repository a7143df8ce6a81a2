/// Counts and latencies per storage tier, for `--stats` and the bench.
public struct StorageMetrics: Sendable, Equatable {
    public struct Tier: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        /// Seconds spent answering hits, in total.
        public var hitSeconds = 0.0
        public var averageHitSeconds: Double { hits > 0 ? hitSeconds / Double(hits) : 0 }
        public var hitRate: Double { hits + misses > 0 ? Double(hits) / Double(hits + misses) : 0 }
    }

    public var memory = Tier()
    public var disk = Tier()
    public var source = Tier()
    /// Loads that joined one already in flight instead of fetching again.
    public var sharedLoads = 0
    /// Requests sent to the source (the network for remote stories).
    public var sourceRequests = 0

    public init() {}
}
