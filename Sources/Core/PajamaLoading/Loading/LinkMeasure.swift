/// What the preloader has seen of the link and of the reader, to look ahead by time
/// (`PreloadPolicy.byTime`): the round trips and rates of its asset transfers, the largest asset, and
/// the time between the reader's page turns. A pure value: every instant is passed in.
public struct LinkMeasure: Sendable, Equatable {
    /// How many of the newest samples each figure is the median of.
    public static let window = 9
    private var roundTrips: [Double] = []
    private var rates: [Double] = []
    private var turns: [Double] = []
    private var lastTurn: ContinuousClock.Instant?
    /// The largest asset size seen (bytes).
    public private(set) var largestAsset = 0
    /// A transfer's rate counts only when it brought at least this many bytes after its first report: the
    /// few bytes of a small file (a sound, a beat-sized picture) can arrive in one burst, or be handed
    /// over together by a busy process, and then look many times faster than the link.
    public static let minimumRateBytes = 64 * 1024

    public init() {}

    /// An asset transfer ended (or was cut): its round trip, rate and size, when its reports told them.
    public mutating func transferred(_ forecast: TransferForecast) {
        if let roundTrip = forecast.roundTrip { Self.add(TransferForecast.seconds(roundTrip), to: &roundTrips) }
        if let rate = forecast.bytesPerSecond, let first = forecast.first, let latest = forecast.latest,
            latest.received - first.received >= Self.minimumRateBytes
        {
            Self.add(rate, to: &rates)
        }
        if let size = forecast.latest?.expected { largestAsset = max(largestAsset, size) }
    }

    /// The reader turned a page at `instant`.
    public mutating func turned(at instant: ContinuousClock.Instant) {
        if let lastTurn { Self.add(TransferForecast.seconds(lastTurn.duration(to: instant)), to: &turns) }
        lastTurn = instant
    }

    /// Seconds per round trip (median), nil before a transfer's first report.
    public var latency: Double? { Self.median(roundTrips) }
    /// The link's rate alone: the fastest of the recent transfers (two sharing the link each see half).
    public var bytesPerSecond: Double? { rates.max() }
    /// Seconds per page (median of the recent turns), nil before two turns.
    public var pageSeconds: Double? { Self.median(turns) }

    /// Steps within which every beat is wanted (`PreloadPolicy.timed` for what was measured, two of the
    /// largest assets at once: the targets of a choice are needed by the same turn); 0 until the link
    /// and the reader's pace are known.
    public var everyBeatWithin: Int {
        guard let latency, let bytesPerSecond, let pageSeconds, largestAsset > 0 else { return 0 }
        return PreloadPolicy.timed(pageSeconds: pageSeconds, latency: latency, bytesPerSecond: bytesPerSecond,
                                   largestAsset: largestAsset, atOnce: 2).everyBeatWithin
    }

    private static func add(_ value: Double, to samples: inout [Double]) {
        samples.append(value)
        if samples.count > window { samples.removeFirst(samples.count - window) }
    }

    private static func median(_ samples: [Double]) -> Double? {
        guard !samples.isEmpty else { return nil }
        return samples.sorted()[samples.count / 2]
    }
}
