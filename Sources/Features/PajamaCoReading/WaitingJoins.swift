import DequeModule
import PajamaModel

/// Followers waiting to join the session (issue 26, crowds): their hellos gather here, under a lock and off
/// the session actor, and the session admits them a bounded batch at a time, so an owner's turn issued
/// during a storm of 2,000 hellos waits for at most one batch on the actor, not for every hello before it.
///
/// One admission (a task, owned here) runs at a time: `add` starts it when none runs; `take` hands it the
/// next batch, or none, and then it ends (atomically, so a join added meanwhile starts a new one). `close`
/// cancels it, refuses every join from then on and hands back those still waiting.
final class WaitingJoins: Sendable {
    struct Request: Sendable {
        let name: String
        let countOnly: Bool
        let answer: CheckedContinuation<CoReadingSession.Follower?, Never>
    }

    private enum State {
        /// `admission`: the task admitting them, while one runs.
        case open(requests: Deque<Request>, admission: Task<Void, Never>?)
        /// Only inside `add` and `take`, under the lock: the list is out of the enum, so it has one owner
        /// and changes in place (no copy of every waiting join each time).
        case changing
        case closed
    }

    private let state = Locked(State.open(requests: [], admission: nil))

    /// Queues `request`, starting the admission (`admit`) if none runs. Answered nil at once when closed.
    func add(_ request: Request, admit: @escaping @Sendable () async -> Void) {
        let added = state.withLock { state -> Bool in
            guard case .open(var requests, let admission) = state else { return false }
            state = .changing
            requests.append(request)
            state = .open(requests: requests, admission: admission ?? Task { await admit() })
            return true
        }
        if !added { request.answer.resume(returning: nil) }
    }

    /// Up to `limit` requests, oldest first; none when none waits: the admission then ends.
    func take(_ limit: Int) -> [Request] {
        state.withLock { state in
            guard case .open(var requests, let admission) = state else { return [] }
            state = .changing
            let batch = Array(requests.prefix(limit))
            requests.removeFirst(batch.count)
            state = .open(requests: requests, admission: batch.isEmpty ? nil : admission)
            return batch
        }
    }

    /// Joins waiting now (tests and the bench).
    var count: Int {
        state.withLock { state in
            if case .open(let requests, _) = state { return requests.count }
            return 0
        }
    }

    /// No more joins: the admission is cancelled; those waiting, to be answered nil.
    func close() -> [Request] {
        state.withLock { state in
            defer { state = .closed }
            guard case .open(let requests, let admission) = state else { return [] }
            admission?.cancel()
            return Array(requests)
        }
    }
}
