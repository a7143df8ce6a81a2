import PajamaModel


/// What the loads of one store have received: a counter per key that grows with every report of bytes
/// arriving (the retry policy's progress timeout watches it), `.progress` events for the UI, and every
/// report handed to whoever watches that key (`watch`: the preloader, to see when a transfer nears its end).
///
/// Safe to call from any thread: the source's read reports progress from wherever its bytes arrive.
public final class LoadActivity<Key: Hashable & Sendable>: Sendable {
    private let counters = Locked<[Key: Int]>([:])
    /// The watchers of each key, by number.
    private let watchers = Locked<(byKey: [Key: [Int: @Sendable (TransferProgress) -> Void]], next: Int)>(([:], 0))
    private let events: LoadingEventHub?
    /// The longest a load that receives bytes goes without a `.progress` event (at 1 byte a second the
    /// 16 KB step would take hours: the Loading screen must still count).
    public let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant

    /// `now` replaces the clock (tests).
    public init(events: LoadingEventHub?, interval: Duration = .milliseconds(500),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.events = events
        self.interval = interval
        self.now = now
    }

    /// How many times bytes arrived for `key` so far (over every load of it; never goes down).
    public func count(_ key: Key) -> Int {
        counters.withLock { $0[key, default: 0] }
    }

    /// Hands every report of bytes arriving for `key`, from any load of it, to `watcher` until
    /// `unwatch` is called with the number returned.
    public func watch(_ key: Key, _ watcher: @escaping @Sendable (TransferProgress) -> Void) -> Int {
        watchers.withLock { watchers in
            defer { watchers.next += 1 }
            watchers.byKey[key, default: [:]][watchers.next] = watcher
            return watchers.next
        }
    }

    public func unwatch(_ key: Key, _ number: Int) {
        watchers.withLock { watchers in
            watchers.byKey[key]?[number] = nil
            if watchers.byKey[key]?.isEmpty == true { watchers.byKey[key] = nil }
        }
    }

    /// A progress callback for one load of `key`: counts every report, and publishes `.progress` for
    /// the first report, then each time another 2% of the file (at least 16 KB) arrived or, when fewer
    /// bytes arrived, `interval` passed, and at the end.
    public func reporter(for key: Key, subject: LoadSubject) -> @Sendable (TransferProgress) -> Void {
        let published = LastPublished()
        return { [self] progress in
            counters.withLock { $0[key, default: 0] += 1 }
            if let watching = watchers.withLock({ $0.byKey[key].map { Array($0.values) } }) {
                for watcher in watching { watcher(progress) }
            }
            guard let events else { return }
            let step = max(16 << 10, (progress.expected ?? 0) / 50)
            let time = now()
            let due = published.last.withLock { last -> Bool in
                let done = progress.expected.map { progress.received >= $0 } ?? false
                guard let previous = last else {
                    last = (progress.received, time)
                    return true
                }
                let moved = progress.received != previous.received
                guard (done && moved) || progress.received < previous.received || progress.received - previous.received >= step
                        || (moved && previous.at.duration(to: time) >= interval)
                else { return false }
                last = (progress.received, time)
                return true
            }
            if due { events.publish(.progress(subject, progress)) }
        }
    }
}

/// The bytes count and time of the last `.progress` event of one load.
private final class LastPublished: Sendable {
    let last = Locked<(received: Int, at: ContinuousClock.Instant)?>(nil)
}
