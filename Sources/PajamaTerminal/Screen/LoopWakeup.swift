/// The reader loop's one way to sleep: until `wake()` or a timeout, whichever comes first. A `wake()` with
/// nobody waiting is kept, so the next wait returns at once (a key or a finished load is never missed).
/// Shared by `Screen` and `HeadlessTerminal`.
@MainActor
final class LoopWakeup {
    private var waiter: CheckedContinuation<Void, Never>?
    private var wakeRequested = false

    /// Ends the current (or the next) `wait` at once.
    func wake() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            wakeRequested = true
        }
    }

    /// Returns after `wake()` or `timeout`; at once when a wake is pending or `ready` is true (a key or the
    /// end of input already there), still yielding so other main-actor work runs (a loop woken again and again
    /// must not starve a finished load or the key worker).
    func wait(timeout: Duration, ready: Bool) async {
        if wakeRequested || ready {
            wakeRequested = false
            await Task.yield()
            return
        }
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self?.wake() }
        }
        await withCheckedContinuation { waiter = $0 }
        timer.cancel()
        wakeRequested = false
    }
}
