import CPulse

extension PulseSoundEngine {
    /// Where the engine is with the server: one state, read and changed with the mainloop's lock held.
    /// `connect` goes `disconnected`/`reconnecting` → `connecting` → `ready` (or back, with the reason);
    /// a lost server goes `ready` → `reconnecting`; `shutdown` goes to `stopped` from anywhere, for good.
    enum State {
        /// No connection: never made, or the first one failed (`reason` says why). `context` is a context
        /// that failed, released by the next connect or the engine's end.
        case disconnected(reason: String, context: OpaquePointer?)
        /// Waiting for the server's answer on `context`; `reason` is why the engine was off before.
        case connecting(OpaquePointer, reason: String)
        /// Connected, in a mode, with its streams and the samples the server confirmed.
        case ready(Connection)
        /// The server was lost (or a reconnect failed); another try is scheduled with backoff. `context`
        /// is the lost one, released by the next connect.
        case reconnecting(reason: String, context: OpaquePointer?)
        /// `shutdown` ran: nothing connects or plays any more. `context` is released by the engine's end.
        case stopped(context: OpaquePointer?)
    }

    /// One connection to the server.
    struct Connection {
        let context: OpaquePointer
        /// `.sampleCache` or `.stream`.
        let mode: SoundMode
        /// Whether the server took the probe upload when connecting.
        let sampleCacheAvailable: Bool
        /// Stream mode's one pre-opened stream, where the loaded sounds are mixed (see `FallbackStream`).
        var fallback: FallbackStream?
        /// The read-aloud voice's own stream, opened when it first speaks (PulseSoundEngine+Speech.swift).
        var speech: FallbackStream?
        /// Names of the samples the server confirmed holding on this connection (sample-cache mode).
        var uploaded: Set<String> = []
    }

    /// What the engine holds whatever the connection (read and changed with the mainloop's lock held).
    struct Memory {
        /// The PCM of every loaded sound, by sample name: what is re-uploaded after a reconnect, and in
        /// stream mode what the mixer plays (already converted to the stream's format).
        var held: [String: PCMBuffer] = [:]
        /// Names of every sample of ours that may still be on the server: uploaded on this or an earlier
        /// connection (a dropped connection leaves the server's samples in place) and not yet removed. What
        /// a reconnect and `shutdown` remove, so nothing is left behind.
        var onServer: Set<String> = []
        /// Names of the uploads in progress (a `shutdown` meanwhile removes them too).
        var uploading: Set<String> = []
        /// Uploads sent and waiting for the server's confirmation (tests read `pendingUploads`).
        var uploadsInFlight = 0
        /// The background sound wanted, and its stream while one is open (PulseSoundEngine+Loop.swift).
        var loop: BackgroundLoop?
        /// The server's address from the last connection.
        var serverInfo = ""
        /// How long the last `shutdown` waited for the server (tests read `shutdownWait`).
        var lastShutdownWait: Duration = .zero
    }
}

extension PulseSoundEngine.State {
    /// The connection, when ready.
    var connection: PulseSoundEngine.Connection? {
        if case .ready(let connection) = self { return connection }
        return nil
    }

    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    /// Why there is no sound now ("" when ready).
    var offReason: String {
        switch self {
        case .disconnected(let reason, _), .connecting(_, let reason), .reconnecting(let reason, _): reason
        case .ready: ""
        case .stopped: "stopped"
        }
    }

    /// The context of whatever state, for the engine's end to release.
    var context: OpaquePointer? {
        switch self {
        case .disconnected(_, let context), .reconnecting(_, let context), .stopped(let context): context
        case .connecting(let context, _): context
        case .ready(let connection): connection.context
        }
    }
}

extension PulseSoundEngine {
    /// Changes the connection in place when ready (nothing otherwise). Lock held.
    func updateConnection(_ change: (inout Connection) -> Void) {
        guard case .ready(var connection) = connectionState else { return }
        change(&connection)
        connectionState = .ready(connection)
    }
}
