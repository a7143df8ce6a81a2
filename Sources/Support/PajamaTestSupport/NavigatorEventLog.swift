import Foundation
import PajamaReading

/// Collects a reader's events (`ReaderViewModel.events()`) as they arrive, for tests to wait on. A wait
/// is answered by the arrival of the event that makes its condition hold (no polling); its timeout only
/// guards against a hang, and the end of the stream (the reader closed) answers every wait left at once.
@MainActor
public final class NavigatorEventLog {
    public private(set) var events: [NavigatorEvent] = []
    private var consumer: Task<Void, Never>?
    private enum State {
        /// The stream goes on; the waits not answered yet, each with its guard against a hang.
        case open([UUID: Waiter])
        /// The stream ended: no event will come.
        case ended
    }

    private struct Waiter {
        let condition: ([NavigatorEvent]) -> Bool
        let reply: CheckedContinuation<Bool, Never>
        let guardTask: Task<Void, Never>
    }

    private var state = State.open([:])

    /// Subscribe before the moves to watch: events published earlier are not on the stream.
    public init(_ stream: AsyncStream<NavigatorEvent>) {
        consumer = Task { @MainActor [weak self] in
            for await event in stream {
                guard let self else { return }
                self.events.append(event)
                self.answer()
            }
            self?.end()
        }
    }

    /// The notices received so far.
    public var notices: [String] {
        events.compactMap { if case .notice(let text) = $0 { text } else { nil } }
    }

    /// Waits until `condition` holds for the events received so far: answered when the event that makes
    /// it hold arrives. False when the stream ends first, or `timeout` passes (a broken build fails
    /// instead of hanging; nothing is asserted about time).
    public func waitFor(timeout: Duration = .seconds(60), _ condition: @escaping ([NavigatorEvent]) -> Bool) async -> Bool {
        if condition(events) { return true }
        guard case .open = state else { return false }
        let id = UUID()
        return await withCheckedContinuation { reply in
            let guardTask = Task { @MainActor [weak self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { self?.give(up: id) }
            }
            guard case .open(var waiters) = state else {
                guardTask.cancel()
                reply.resume(returning: false)
                return
            }
            waiters[id] = Waiter(condition: condition, reply: reply, guardTask: guardTask)
            state = .open(waiters)
        }
    }

    /// Waits until `event` has been received.
    public func waitFor(_ event: NavigatorEvent, timeout: Duration = .seconds(60)) async -> Bool {
        await waitFor(timeout: timeout) { $0.contains(event) }
    }

    /// Waits until a notice containing `text` has been received.
    public func waitForNotice(containing text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitFor(timeout: timeout) { events in
            events.contains { if case .notice(let n) = $0 { n.contains(text) } else { false } }
        }
    }

    /// Answers the waits whose condition holds now.
    private func answer() {
        guard case .open(var waiters) = state else { return }
        for (id, waiter) in waiters where waiter.condition(events) {
            waiters[id] = nil
            waiter.guardTask.cancel()
            waiter.reply.resume(returning: true)
        }
        state = .open(waiters)
    }

    private func give(up id: UUID) {
        guard case .open(var waiters) = state, let waiter = waiters.removeValue(forKey: id) else { return }
        state = .open(waiters)
        waiter.reply.resume(returning: false)
    }

    /// The stream ended: every wait left is answered, false.
    private func end() {
        guard case .open(let waiters) = state else { return }
        state = .ended
        for waiter in waiters.values {
            waiter.guardTask.cancel()
            waiter.reply.resume(returning: false)
        }
    }

    deinit { consumer?.cancel() }
}
