import PajamaCore

/// Collects a reader's events (`ReaderViewModel.events()`) as they arrive, for tests to wait on.
@MainActor
public final class ReaderEventLog {
    public private(set) var events: [ReaderEvent] = []
    private var consumer: Task<Void, Never>?

    /// Subscribe before the moves to watch: events published earlier are not on the stream.
    public init(_ stream: AsyncStream<ReaderEvent>) {
        consumer = Task { @MainActor [weak self] in
            for await event in stream { self?.events.append(event) }
        }
    }

    /// The notices received so far.
    public var notices: [String] {
        events.compactMap { if case .notice(let text) = $0 { text } else { nil } }
    }

    /// Waits until `condition` holds for the events received so far, at most `timeout` (a broken build
    /// fails instead of hanging; nothing is asserted about time). Returns whether it held.
    public func waitFor(timeout: Duration = .seconds(60), _ condition: ([ReaderEvent]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(events) {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Waits until `event` has been received.
    public func waitFor(_ event: ReaderEvent, timeout: Duration = .seconds(60)) async -> Bool {
        await waitFor(timeout: timeout) { $0.contains(event) }
    }

    /// Waits until a notice containing `text` has been received.
    public func waitForNotice(containing text: String, timeout: Duration = .seconds(60)) async -> Bool {
        await waitFor(timeout: timeout) { events in
            events.contains { if case .notice(let n) = $0 { n.contains(text) } else { false } }
        }
    }

    deinit { consumer?.cancel() }
}
