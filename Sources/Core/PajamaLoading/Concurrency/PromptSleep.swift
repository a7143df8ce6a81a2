import Dispatch
import PajamaModel

/// Sleeping that gives its memory back as soon as the sleeper is cancelled.
///
/// Swift's `Task.sleep` (and so `ContinuousClock.sleep`) keeps its timer and a small task, about 450
/// bytes, until the deadline even when the sleeper is cancelled at once. The retry policy's watchdog sleeps
/// 20 s for every load and is cancelled when the load ends, so reading fast (`pajama-bench memory`, 10,000
/// pages) kept 4 MB of cancelled watchdogs alive, released only 20 s later (issue 27). On the continuous
/// clock this sleeps on a dispatch timer that is cancelled and freed with the task; on any other clock (a
/// test's manual clock) it sleeps as that clock does.
public enum PromptSleep {
    /// Counts the timers of the sleeps started under it (in this task and its children) that are still
    /// scheduled: up at a start, down when fired or cancelled (tests).
    @TaskLocal static var ledger: Locked<Int>?

    /// Sleeps until `deadline` on `clock`; throws `CancellationError` when cancelled, at once.
    public static func sleep<C: Clock>(until deadline: C.Instant, on clock: C) async throws where C.Duration == Duration {
        guard let instant = deadline as? ContinuousClock.Instant else { return try await clock.sleep(until: deadline, tolerance: nil) }
        let delay = ContinuousClock.now.duration(to: instant)
        guard delay > .zero else { return try Task.checkCancellation() }
        let timer = Timer(ledger: ledger)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in timer.start(after: delay, continuation) }
        } onCancel: {
            timer.stop()
        }
    }

    /// One dispatch timer and the continuation it resumes, whichever of its firing and the cancellation
    /// comes first (the cancellation may come before the timer is started).
    private final class Timer: Sendable {
        private enum State {
            case idle
            case running(any DispatchSourceTimer, CheckedContinuation<Void, any Error>)
            case done
        }
        private let state = Locked(State.idle)
        private let ledger: Locked<Int>?

        init(ledger: Locked<Int>?) { self.ledger = ledger }

        func start(after delay: Duration, _ continuation: CheckedContinuation<Void, any Error>) {
            let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
            // Made and activated under the lock: a dispatch source released or cancelled before its activation
            // stops the process, so none exists unless it runs.
            let started = state.withLock { state -> Bool in
                guard case .idle = state else { return false }
                let source = DispatchSource.makeTimerSource()
                source.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)))
                source.setEventHandler { [self] in finish(nil) }
                source.activate()
                state = .running(source, continuation)
                return true
            }
            if started { ledger?.withLock { $0 += 1 } } else { continuation.resume(throwing: CancellationError()) }
        }

        func stop() { finish(CancellationError()) }

        /// Resumes the sleeper (throwing `error` if given) and cancels the timer, once.
        private func finish(_ error: (any Error)?) {
            let running = state.withLock { state -> (any DispatchSourceTimer, CheckedContinuation<Void, any Error>)? in
                defer { state = .done }
                guard case .running(let source, let continuation) = state else { return nil }
                return (source, continuation)
            }
            guard let (source, continuation) = running else { return }
            source.setEventHandler {}
            source.cancel()
            ledger?.withLock { $0 -= 1 }
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
