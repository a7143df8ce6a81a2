import CPulse

extension PulseSoundEngine {
    /// Speaks `pcm` (any rate and channels) on the read-aloud stream, opened on first use: after what it is
    /// saying, or at once when `interrupting`. A stream of its own ("Pajama speech", role a11y), so the
    /// server mixes it under the story's sounds, which keep playing; in both sound modes. Silent when
    /// muted; at the reader's volume. False when there is no server or the stream cannot be opened.
    @discardableResult
    public func speak(_ pcm: PCMBuffer, interrupting: Bool) -> Bool {
        let converted = pcm.converted(rate: FallbackStream.rate, channels: FallbackStream.channels)
        let (muted, level) = soundSettings
        lock()
        defer { unlock() }
        guard let connection = connectionState.connection else { return false }
        if connection.speech?.isReady != true {
            updateConnection { connection in
                connection.speech?.close()
                connection.speech = nil
            }
            let opened = FallbackStream.open(context: connection.context, mainloop: mainloop, name: "Pajama speech", role: "a11y")
            guard case .success(let stream) = opened else { return false }
            // The wait for the server released the lock: the connection may have gone meanwhile.
            guard connectionState.connection?.context == connection.context, connectionState.connection?.speech == nil else {
                stream.close()
                return connectionState.connection?.speech != nil
            }
            updateConnection { $0.speech = stream }
        }
        guard let speechStream = connectionState.connection?.speech else { return false }
        if interrupting { speechStream.stopAll() }
        if !muted { speechStream.startAfterOthers(converted, gain: Float(level) / 100) }
        return true
    }

    /// Stops what the read-aloud voice is saying (the stream stays open for the next line).
    public func stopSpeaking() {
        lock()
        defer { unlock() }
        connectionState.connection?.speech?.stopAll()
    }
}
