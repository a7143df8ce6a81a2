import Foundation

/// A clock that moves only when a test calls `advance(by:)`: retry pauses, timeouts and deadlines are
/// tested without sleeping. Tests synchronise with `waitForSleeper(_:)`, which returns once some task
/// is asleep on the clock for a matching duration.
final class ManualClock: Clock, @unchecked Sendable {
    // Safe: every mutable field is only touched with `lock` held; continuations are resumed outside it.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var deadline: Instant
        var requested: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Int: Sleeper] = [:]
    private var cancelledBeforeStart: Set<Int> = []
    private var nextId = 0
    private var watchers: [(match: (Duration) -> Bool, continuation: CheckedContinuation<Duration, Never>)] = []
    private var requests: [Duration] = []

    var now: Instant {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    var minimumResolution: Duration { .zero }

    /// Every sleep asked for, in order, as durations from the moment it was asked.
    var sleepRequests: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            defer { nextId += 1 }
            return nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if cancelledBeforeStart.remove(id) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let requested = current.duration(to: deadline)
                requests.append(requested)
                if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                sleepers[id] = Sleeper(deadline: deadline, requested: requested, continuation: continuation)
                let ready = takeWatchers(for: requested)
                lock.unlock()
                for watcher in ready { watcher.resume(returning: requested) }
            }
        } onCancel: {
            lock.lock()
            let sleeper = sleepers.removeValue(forKey: id)
            if sleeper == nil { cancelledBeforeStart.insert(id) }
            lock.unlock()
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        lock.lock()
        current = current.advanced(by: duration)
        let due = sleepers.filter { $0.value.deadline <= current }
        for id in due.keys { sleepers[id] = nil }
        lock.unlock()
        for sleeper in due.values { sleeper.continuation.resume() }
    }

    /// Returns the requested duration of a pending sleep matching `match`, waiting for one if needed.
    func waitForSleeper(_ match: @escaping (Duration) -> Bool = { _ in true }) async -> Duration {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let found = sleepers.values.first(where: { match($0.requested) }) {
                lock.unlock()
                continuation.resume(returning: found.requested)
                return
            }
            watchers.append((match, continuation))
            lock.unlock()
        }
    }

    /// The number of tasks asleep on the clock now.
    var pendingSleepers: Int {
        lock.lock()
        defer { lock.unlock() }
        return sleepers.count
    }

    private func takeWatchers(for requested: Duration) -> [CheckedContinuation<Duration, Never>] {
        var ready: [CheckedContinuation<Duration, Never>] = []
        watchers.removeAll { watcher in
            guard watcher.match(requested) else { return false }
            ready.append(watcher.continuation)
            return true
        }
        return ready
    }
}
