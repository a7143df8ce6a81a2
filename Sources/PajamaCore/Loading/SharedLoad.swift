import Foundation

/// One load that any number of callers wait for, each of which may give up on its own.
///
/// A caller whose task is cancelled stops waiting at once (it gets `.cancelled`) while the others keep
/// waiting; when the last caller gives up before the result, the work itself is cancelled and the load
/// is `isAbandoned` (a new caller should start a new load). This is what lets a progress timeout
/// return on time even though the load is shared.
final class SharedLoad<Value: Sendable>: @unchecked Sendable {
    // Safe: `waiters`, `result`, `nextWaiter`, `abandoned` and `task` are only touched with `lock` held;
    // continuations are resumed after it is released.
    private let lock = NSLock()
    private var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
    private var result: Result<Value, AssetLoadError>?
    private var nextWaiter = 0
    private var abandoned = false
    private var task: Task<Void, Never>?
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
        lock.withLock { self.task = task }
    }

    /// True once every caller gave up before the result (the work was cancelled).
    var isAbandoned: Bool { lock.withLock { abandoned } }

    /// Waits for the result; throws `.cancelled` at once if the calling task is cancelled.
    func value() async throws(AssetLoadError) -> Value {
        let id = lock.withLock {
            defer { nextWaiter += 1 }
            return nextWaiter
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                    lock.lock()
                    if let result {
                        lock.unlock()
                        continuation.resume(with: result)
                    } else if Task.isCancelled {
                        let abandon = waiters.isEmpty
                        if abandon { abandoned = true }
                        let work = task
                        lock.unlock()
                        continuation.resume(throwing: AssetLoadError(.cancelled, subject: subject))
                        if abandon { work?.cancel() }
                    } else {
                        waiters[id] = continuation
                        lock.unlock()
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
        let work = lock.withLock {
            if result == nil { abandoned = true }
            return task
        }
        work?.cancel()
    }

    private func giveUp(_ id: Int) {
        lock.lock()
        let continuation = waiters.removeValue(forKey: id)
        let abandon = continuation != nil && waiters.isEmpty && result == nil
        if abandon { abandoned = true }
        let work = task
        lock.unlock()
        continuation?.resume(throwing: AssetLoadError(.cancelled, subject: subject))
        if abandon { work?.cancel() }
    }

    private func finish(_ outcome: Result<Value, AssetLoadError>) {
        lock.lock()
        result = outcome
        let all = waiters.values
        waiters = [:]
        lock.unlock()
        for continuation in all { continuation.resume(with: outcome.mapError { $0 as any Error }) }
    }
}
