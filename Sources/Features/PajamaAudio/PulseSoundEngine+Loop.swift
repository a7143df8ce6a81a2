import CPulse
import PajamaModel

/// The background sound (docs/sound.md, "Background sound"): one loaded sound looping on a playback stream
/// of its own ("Pajama background", role music) in both modes, under the page and tap sounds (at
/// `loopLevel` of the volume), following the volume and mute while it plays. It keeps playing across
/// pages until `stopLoop`, a reconnect reopens it, and `shutdown` closes it.
extension PulseSoundEngine {
    /// The background sound's level against the page sounds': it sits under them.
    public static let loopLevel: Float = 0.5

    /// The background sound wanted, and its stream while one is open.
    struct BackgroundLoop {
        var key: SoundKey
        /// The sound at the stream's format, once converted (on `queue`).
        var pcm: PCMBuffer?
        var stream: FallbackStream?
        /// True while `queue` converts the sound and opens its stream.
        var opening: Bool
    }

    /// Loops `sound` (loaded) as the background sound: kept when it is the one playing, else started in
    /// place of the one playing. Returns at once (true when the engine holds the sound): the sound is
    /// converted and its stream opened on the engine's queue, so a slow or frozen server never holds the
    /// caller (the reader's main actor). Without a server it starts when the server comes back.
    @discardableResult
    public func startLoop(_ sound: LoadedSound) -> Bool {
        let name = Self.sampleName(sound.key)
        lock()
        defer { unlock() }
        guard !connectionState.isStopped, let held = memory.held[name] else { return false }
        if let loop = memory.loop, loop.key == sound.key, loop.opening || loop.stream?.isReady == true { return true }
        memory.loop?.stream?.close()
        memory.loop = BackgroundLoop(key: sound.key, pcm: nil, stream: nil, opening: true)
        let key = sound.key
        queue.async { [weak self] in
            // Converted outside the lock (a long sound takes milliseconds): the mainloop keeps running.
            let pcm = held.sampleRate == FallbackStream.rate && held.channels == FallbackStream.channels
                ? held : held.converted(rate: FallbackStream.rate, channels: FallbackStream.channels)
            guard let self else { return }
            self.lock()
            defer { self.unlock() }
            guard self.memory.loop?.key == key, self.memory.loop?.stream == nil else { return }
            self.memory.loop?.pcm = pcm
            self.memory.loop?.opening = false
            self.openLoopLocked()
        }
        return true
    }

    /// Stops the background sound (its stream is closed: the server's sink input goes away).
    public func stopLoop() {
        lock()
        defer { unlock() }
        memory.loop?.stream?.close()
        memory.loop = nil
    }

    /// The background sound playing now (nil: none, or waiting for the server).
    public var loopPlaying: SoundKey? {
        lock()
        defer { unlock() }
        guard let loop = memory.loop, loop.stream?.isReady == true else { return nil }
        return loop.key
    }

    /// The background sound's gain at the current volume and mute.
    var loopGain: Float {
        let (muted, level) = soundSettings
        return muted ? 0 : Float(level) / 100 * Self.loopLevel
    }

    /// Opens the stream of the background sound wanted (once converted) and starts it. Lock held (released
    /// while the server answers: the engine's queue or a reconnect runs this, never the reader).
    func openLoopLocked() {
        guard let loop = memory.loop, let pcm = loop.pcm, loop.stream == nil, let ctx = connectionState.connection?.context else { return }
        guard case .success(let stream) = FallbackStream.open(context: ctx, mainloop: mainloop, name: "Pajama background", role: "music") else {
            return
        }
        // The wait for the server released the lock: the sound wanted may have changed meanwhile.
        guard memory.loop?.key == loop.key, memory.loop?.stream == nil, connectionState.connection?.context == ctx else {
            stream.close()
            return
        }
        stream.startLooping(pcm, gain: loopGain)
        memory.loop?.stream = stream
    }

    /// Closes the background sound's stream, keeping the sound wanted (a reconnect opens it again). Lock held.
    func closeLoopStreamLocked() {
        memory.loop?.stream?.close()
        memory.loop?.stream = nil
    }

    /// Applies the volume and mute to the background sound playing.
    func updateLoopGain() {
        let gain = loopGain
        lock()
        defer { unlock() }
        memory.loop?.stream?.setGain(gain)
    }
}
