/// Gathers a burst of file events into one batch: an editor's save is often several events within a few
/// milliseconds (write a temporary file, rename it over the old one, change its mode). A batch is due once
/// no event came for `quiet`, or `longest` after its first event when events never stop coming.
/// A value with no clock of its own: the caller passes the instants (the watcher's thread; tests).
public struct ChangeDebouncer: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public let quiet: Duration
    public let longest: Duration
    private var pending: [FolderEvent] = []
    private var first: Instant?
    private var last: Instant?

    public init(quiet: Duration = .milliseconds(100), longest: Duration = .seconds(1)) {
        self.quiet = quiet
        self.longest = longest
    }

    /// Adds events that happened at `now`.
    public mutating func add(_ events: [FolderEvent], at now: Instant) {
        guard !events.isEmpty else { return }
        pending += events
        if first == nil { first = now }
        last = now
    }

    /// When the batch gathered so far is due (nil: nothing gathered).
    public var deadline: Instant? {
        guard let first, let last else { return nil }
        return min(last + quiet, first + longest)
    }

    /// The batch, once it is due at `now` (each event once, in order); nil before.
    public mutating func take(at now: Instant) -> [FolderEvent]? {
        guard let deadline, now >= deadline else { return nil }
        var seen: Set<FolderEvent> = []
        let batch = pending.filter { seen.insert($0).inserted }
        pending = []
        first = nil
        last = nil
        return batch
    }
}
