import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// One load that any number of callers wait for, each of which may give up on its own.
///
/// A caller whose task is cancelled stops waiting at once (it gets `.cancelled`) while the others keep
/// waiting; when the last caller gives up before the result, the work itself is cancelled and the load
/// is `isAbandoned` (a new caller should start a new load). This is what lets a progress timeout
/// return on time even though the load is shared.
final class SharedLoad<Value: Sendable>: Sendable {
    /// What the callers share; continuations are resumed after the lock is released.
    private struct State {
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var result: Result<Value, AssetLoadError>?
        var nextWaiter = 0
        var abandoned = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// What a new waiter does once the lock is released.
    private enum Next {
        case done(Result<Value, AssetLoadError>)
        case cancelled(abandon: Bool, work: Task<Void, Never>?)
        case waiting
    }
    private let subject: String

    /// Starts `work` at once.
    init(subject: String, work: @escaping @Sendable () async throws(AssetLoadError) -> Value) {
        self.subject = subject
        let task = Task { [self] in
            let outcome: Result<Value, AssetLoadError>
            do throws(AssetLoadError) {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            finish(outcome)
        }
        state.withLock { $0.task = task }
    }

    /// True once every caller gave up before the result (the work was cancelled).
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Waits for the result; throws `.cancelled` at once if the calling task is cancelled.
    func value() async throws(AssetLoadError) -> Value {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                    let next = state.withLock { state -> Next in
                        if let result = state.result { return .done(result) }
                        if Task.isCancelled {
                            let abandon = state.waiters.isEmpty
                            if abandon { state.abandoned = true }
                            return .cancelled(abandon: abandon, work: state.task)
                        }
                        state.waiters[id] = continuation
                        return .waiting
                    }
                    switch next {
                    case .done(let result): continuation.resume(with: result)
                    case .cancelled(let abandon, let work):
                        continuation.resume(throwing: AssetLoadError(.cancelled, subject: subject))
                        if abandon { work?.cancel() }
                    case .waiting: break
                    }
                }
            } onCancel: {
                giveUp(id)
            }
        } catch let error as AssetLoadError {
            throw error
        } catch {
            throw AssetLoadError(.cancelled, subject: subject)
        }
    }

    /// Cancels the work for everyone (waiters get its `.cancelled` error, or its result if it was done).
    func cancel() {
        let work = state.withLock {
            if $0.result == nil { $0.abandoned = true }
            return $0.task
        }
        work?.cancel()
    }

    private func giveUp(_ id: Int) {
        let (continuation, abandon, work) = state.withLock { state in
            let continuation = state.waiters.removeValue(forKey: id)
            let abandon = continuation != nil && state.waiters.isEmpty && state.result == nil
            if abandon { state.abandoned = true }
            return (continuation, abandon, state.task)
        }
        continuation?.resume(throwing: AssetLoadError(.cancelled, subject: subject))
        if abandon { work?.cancel() }
    }

    private func finish(_ outcome: Result<Value, AssetLoadError>) {
        let all = state.withLock { state in
            state.result = outcome
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for continuation in all { continuation.resume(with: outcome.mapError { $0 as any Error }) }
    }
}
