import PajamaModel

/// When one transfer will end, from its progress reports: the time its first report took (the request
/// out and the answer's head back: its round trip) and the rate its bytes have come at since.
///
/// The preloader asks it whether the transfer ends within one round trip from now
/// (`endsWithinRoundTrip`): a request sent then sees its first byte about when this transfer's last
/// one arrives, so the next transfer follows this one on the link without sharing it and without the
/// link going idle for the round trip. Until its own bytes give a rate, the link's rate seen on earlier
/// transfers stands in (`linkRate`): a small file is then ending as soon as its size is announced. A pure
/// value: every instant is passed in.
public struct TransferForecast: Sendable, Equatable {
    /// When the load was asked for.
    public let started: ContinuousClock.Instant
    /// The first report: when the answer began, and the bytes it already had (a resumed transfer).
    public private(set) var first: Report?
    /// The newest report.
    public private(set) var latest: Report?

    public struct Report: Sendable, Equatable {
        public var at: ContinuousClock.Instant
        public var received: Int
        public var expected: Int?
    }

    /// The link's rate seen before this transfer (bytes per second), used until its own bytes give one.
    public let linkRate: Double?

    public init(started: ContinuousClock.Instant, linkRate: Double? = nil) {
        self.started = started
        self.linkRate = linkRate
    }

    public mutating func record(_ progress: TransferProgress, at instant: ContinuousClock.Instant) {
        let report = Report(at: instant, received: progress.received, expected: progress.expected)
        if first == nil { first = report }
        latest = report
    }

    /// The time from the request to the first report; nil before it.
    public var roundTrip: Duration? { first.map { started.duration(to: $0.at) } }

    /// Bytes per second since the first report; nil until bytes arrived after it.
    public var bytesPerSecond: Double? {
        guard let first, let latest, latest.received > first.received else { return nil }
        let seconds = Self.seconds(first.at.duration(to: latest.at))
        return seconds > 0 ? Double(latest.received - first.received) / seconds : nil
    }

    /// The time the bytes still missing take at the rate seen (else at `linkRate`); zero when all are
    /// in, nil when the size or a rate is not known yet.
    public var remaining: Duration? {
        guard let latest, let expected = latest.expected else { return nil }
        let missing = expected - latest.received
        if missing <= 0 { return .zero }
        guard let rate = bytesPerSecond ?? linkRate, rate > 0 else { return nil }
        return .seconds(Double(missing) / rate)
    }

    /// Whether the transfer's last byte is due within one round trip of its latest report: a request sent
    /// now would not share the link with it for long. False while the size or the rate is unknown.
    public var endsWithinRoundTrip: Bool {
        guard let remaining, let roundTrip else { return false }
        return remaining <= roundTrip
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
