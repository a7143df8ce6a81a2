/// The reader loop's one way to sleep: until `wake()` or a timeout, whichever comes first. A `wake()` with
/// nobody waiting is kept, so the next wait returns at once (a key or a finished load is never missed).
/// Shared by `Screen` and `HeadlessTerminal`.
///
/// One timer serves every wait, and is kept across them: a wait that ends after the time the timer is
/// set for starts none (when the timer goes off before the wait's end, it is set again for that end). So a
/// key, which wakes the loop two or three times, starts no timer task and arms no system timer on its way
/// to the frame; only a wait that must end sooner (the loading grace period, the stats panel) sets it anew.
@MainActor
final class LoopWakeup {
    private enum State {
        /// Nobody waits; a `wake()` came meanwhile when `wakeRequested`.
        case idle(wakeRequested: Bool)
        /// The loop waits, until `deadline` at the latest.
        case waiting(CheckedContinuation<Void, Never>, deadline: ContinuousClock.Instant)
    }

    private var state = State.idle(wakeRequested: false)
    /// The timer and the instant it goes off (nil: none set).
    private var timer: (task: Task<Void, Never>, due: ContinuousClock.Instant)?

    isolated deinit { timer?.task.cancel() }

    /// Ends the current (or the next) `wait` at once.
    func wake() {
        switch state {
        case .waiting(let waiter, _):
            state = .idle(wakeRequested: false)
            waiter.resume()
        case .idle:
            state = .idle(wakeRequested: true)
        }
    }

    /// Returns after `wake()` or `timeout`; at once when a wake is pending or `ready` is true (a key or the
    /// end of input already there), still yielding so other main-actor work runs (a loop woken again and again
    /// must not starve a finished load or the key worker).
    func wait(timeout: Duration, ready: Bool) async {
        if case .idle(let wakeRequested) = state, wakeRequested || ready {
            state = .idle(wakeRequested: false)
            await Task.yield()
            return
        }
        let deadline = ContinuousClock.now + timeout
        if timer.map({ $0.due > deadline }) ?? true { setTimer(for: deadline) }
        await withCheckedContinuation { state = .waiting($0, deadline: deadline) }
    }

    private func setTimer(for due: ContinuousClock.Instant) {
        timer?.task.cancel()
        timer = (Task { @MainActor [weak self] in
            try? await Task.sleep(until: due, clock: .continuous)
            if !Task.isCancelled { self?.timerWentOff() }
        }, due)
    }

    /// Ends the wait whose end has come; a wait that ends later has the timer set again for its end.
    private func timerWentOff() {
        timer = nil
        guard case .waiting(_, let deadline) = state else { return }  // the next wait sets it
        if deadline <= .now { wake() } else { setTimer(for: deadline) }
    }
}
