import FoundationEssentials
import Glibc
import PajamaBasics
import UnixSignals

/// The quit signals, SIGINT, SIGTERM and SIGHUP, as one AsyncSequence (service-lifecycle's
/// `UnixSignalsSequence`), read by a task this object owns on the main actor.
///
/// The first signal is kept in `received` and `onSignal` is called (the screen wakes its input wait), so
/// the loop that owns the terminal ends at once, the normal way: progress is flushed, the terminal is
/// given back, and `pajama` exits with 128 + the signal's number. Later signals change nothing. Crash
/// signals are not here: `TerminalGuard` restores the terminal from an async-signal-safe handler.
@MainActor
public final class QuitSignals {
    private enum State {
        case idle
        case listening(Task<Void, Never>)
        case stopped
    }

    private var state = State.idle
    /// The first quit signal received, if any.
    public private(set) var received: Int32?
    /// Called on the main actor when a quit signal arrives.
    public var onSignal: (@MainActor () -> Void)?

    /// The signals that end the reader.
    public static let trapped: [UnixSignal] = [.sigint, .sigterm, .sighup]

    public init() {}

    /// Starts listening; returns once the signals are trapped, so none sent after is lost or kills the
    /// process. Call it before the screen opens.
    public func start() async {
        guard case .idle = state else { return }
        let signals = await UnixSignalsSequence(trapping: Self.trapped)
        guard case .idle = state else { return }  // stopped while trapping
        state = .listening(Task { [weak self] in
            for await signal in signals {
                guard let self else { return }
                self.receive(signal.rawValue)
            }
        })
    }

    /// Stops listening (the task ends); what was received stays.
    public func stop() {
        if case .listening(let task) = state { task.cancel() }
        state = .stopped
    }

    private func receive(_ number: Int32) {
        if received == nil { received = number }
        onSignal?()
    }
}
