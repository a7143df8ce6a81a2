import CPulse
import Foundation
import PajamaModel

/// What the bench's two watchers of a private server share (`SinkOnsetRecorder`, `SinkInputEvents`): a
/// libpulse connection, the first time something happened after `arm(notBefore:)`, and a stop that runs
/// once. Subclasses record times from their mainloop callbacks (`isWatching`, `notBefore`, `record`, called
/// with the mainloop lock held, as callbacks are) and unhook their callbacks in `detach`.
class PulseWatch: @unchecked Sendable {
    // Safe: `armed`, `notBefore` and `found` are read and written only with the client's mainloop lock held;
    // `isOpen` is `Locked`.
    let client: PulseClient
    private var armed = false
    private(set) var notBefore = 0.0
    private var found: Double?
    private let isOpen = Locked(true)

    init(client: PulseClient) { self.client = client }

    /// Forgets the last time and watches for the next one at `notBefore` or later.
    func arm(notBefore time: Double) {
        client.lock()
        found = nil
        notBefore = time
        armed = true
        client.unlock()
    }

    /// The first time recorded after `arm()` (CLOCK_MONOTONIC seconds), once there is one.
    var firstTime: Double? {
        guard isOpen.withLock({ $0 }) else { return nil }
        client.lock()
        defer { client.unlock() }
        return found
    }

    /// True while armed and nothing is recorded yet (mainloop lock held).
    var isWatching: Bool { armed && found == nil }

    /// Keeps `time` as the first time when watching and it is not before `notBefore` (mainloop lock held;
    /// a nanosecond of slack for a time computed from sample offsets that starts exactly there).
    func record(_ time: Double) {
        guard isWatching, time >= notBefore - 1e-9 else { return }
        found = time
        armed = false
    }

    /// Unhooks the subclass's callbacks (mainloop lock held).
    func detach() {}

    /// Stops watching and disconnects; runs once.
    func stop() {
        guard isOpen.withLock({ isOpen -> Bool in
            defer { isOpen = false }
            return isOpen
        }) else { return }
        client.lock()
        detach()
        client.unlock()
        client.close()
    }
}
