import Synchronization

/// What the loads of one store have received: a counter per key that grows with every report of bytes
/// arriving (the retry policy's progress timeout watches it) and `.progress` events for the UI.
///
/// Safe to call from any thread: the source's read reports progress from wherever its bytes arrive.
public final class LoadActivity<Key: Hashable & Sendable>: Sendable {
    private let counters = Mutex<[Key: Int]>([:])
    private let events: LoadingEventHub?

    public init(events: LoadingEventHub?) {
        self.events = events
    }

    /// How many times bytes arrived for `key` so far (over every load of it; never goes down).
    public func count(_ key: Key) -> Int {
        counters.withLock { $0[key, default: 0] }
    }

    /// A progress callback for one load of `key`: counts every report, and publishes `.progress` for
    /// the first report, then each time another 2% of the file (at least 16 KB) arrived, and at the end.
    public func reporter(for key: Key, subject: LoadSubject) -> @Sendable (TransferProgress) -> Void {
        let published = LastPublished()
        return { [self] progress in
            counters.withLock { $0[key, default: 0] += 1 }
            guard let events else { return }
            let step = max(16 << 10, (progress.expected ?? 0) / 50)
            let due = published.received.withLock { last -> Bool in
                let done = progress.expected.map { progress.received >= $0 } ?? false
                guard let previous = last else {
                    last = progress.received
                    return true
                }
                guard (done && previous != progress.received) || progress.received < previous || progress.received - previous >= step
                else { return false }
                last = progress.received
                return true
            }
            if due { events.publish(.progress(subject, progress)) }
        }
    }
}

/// The bytes count of the last `.progress` event of one load.
private final class LastPublished: Sendable {
    let received = Mutex<Int?>(nil)
}
