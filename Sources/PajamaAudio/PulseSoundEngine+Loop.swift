import CPulse
import PajamaCore

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
        /// The sound at the stream's format.
        var pcm: PCMBuffer
        var stream: FallbackStream?
    }

    /// Loops `sound` (loaded) as the background sound: kept when it is the one playing, else started in
    /// place of the one playing. False when the engine does not hold the sound or there is no server (it
    /// then starts when the server comes back).
    @discardableResult
    public func startLoop(_ sound: LoadedSound) -> Bool {
        let name = Self.sampleName(sound.key)
        lock()
        if let loop = backgroundLoop, loop.key == sound.key, loop.stream?.isReady == true {
            unlock()
            return true
        }
        let held = self.held[name]
        unlock()
        guard let held else { return false }
        // Converted outside the lock (a long sound takes milliseconds): the mainloop keeps running.
        let pcm = held.sampleRate == FallbackStream.rate && held.channels == FallbackStream.channels
            ? held : held.converted(rate: FallbackStream.rate, channels: FallbackStream.channels)
        lock()
        defer { unlock() }
        guard !stopped else { return false }
        backgroundLoop?.stream?.close()
        backgroundLoop = BackgroundLoop(key: sound.key, pcm: pcm, stream: nil)
        return openLoopLocked()
    }

    /// Stops the background sound (its stream is closed: the server's sink input goes away).
    public func stopLoop() {
        lock()
        defer { unlock() }
        backgroundLoop?.stream?.close()
        backgroundLoop = nil
    }

    /// The background sound playing now (nil: none, or waiting for the server).
    public var loopPlaying: SoundKey? {
        lock()
        defer { unlock() }
        guard let loop = backgroundLoop, loop.stream?.isReady == true else { return nil }
        return loop.key
    }

    /// The background sound's gain at the current volume and mute.
    var loopGain: Float {
        let (muted, level) = soundSettings
        return muted ? 0 : Float(level) / 100 * Self.loopLevel
    }

    /// Opens the stream of the background sound wanted and starts it. Lock held.
    @discardableResult
    func openLoopLocked() -> Bool {
        guard var loop = backgroundLoop, connected, let ctx = context else { return false }
        guard case .success(let stream) = FallbackStream.open(context: ctx, mainloop: mainloop, name: "Pajama background", role: "music") else {
            return false
        }
        stream.startLooping(loop.pcm, gain: loopGain)
        loop.stream = stream
        backgroundLoop = loop
        return true
    }

    /// Closes the background sound's stream, keeping the sound wanted (a reconnect opens it again). Lock held.
    func closeLoopStreamLocked() {
        backgroundLoop?.stream?.close()
        backgroundLoop?.stream = nil
    }

    /// Applies the volume and mute to the background sound playing.
    func updateLoopGain() {
        let gain = loopGain
        lock()
        defer { unlock() }
        backgroundLoop?.stream?.setGain(gain)
    }
}
