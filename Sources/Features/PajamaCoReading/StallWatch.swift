import NIOCore
import PajamaModel

/// Closes a connection whose write has not finished within `timeout` of being armed: a download whose
/// client takes nothing (`HostLimits.downloadStallTimeout`). Armed before each write and cancelled after it;
/// `fired` says afterwards whether it closed the connection.
final class StallWatch: Sendable {
    private let channel: any Channel
    private let timeout: TimeAmount
    private let closed = Locked(false)

    init(channel: any Channel, timeout: Duration) {
        self.channel = channel
        self.timeout = HostChannel.timeAmount(timeout)
    }

    /// Whether a write outlasted the timeout (and the connection was closed for it).
    var fired: Bool { closed.withLock { $0 } }

    /// Starts the clock for one write; cancel what it returns once the write is done.
    func arm() -> Scheduled<Void> {
        let channel = channel, closed = closed
        return channel.eventLoop.scheduleTask(in: timeout) {
            closed.withLock { $0 = true }
            channel.close(promise: nil)
        }
    }
}
