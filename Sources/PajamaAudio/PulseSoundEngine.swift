import CPulse
import Dispatch
import Foundation
import Logging
import PajamaCore

/// Sound through PulseAudio. In sample-cache mode "load" decodes with libsndfile and uploads the PCM to
/// the server, completing only when the server confirms; "play" is one `pa_context_play_sample` request
/// (with a proplist naming the story and asset), with no decoding or streaming on the hot path, so
/// sounds overlap freely. On a server without a sample cache the engine falls back to one pre-opened
/// low-latency stream that mixes the loaded sounds in process (see `FallbackStream`, `SoundMode`).
///
/// With no server the engine is `.off` and every load fails fast (reading never waits on sound). When
/// the server goes away the engine goes silent, reconnects in the background with backoff, and
/// re-uploads sounds lazily from the PCM it keeps.
public final class PulseSoundEngine: @unchecked Sendable {
    // Safe: every mutable property is read and written with `mainloop`'s lock held (libpulse's own
    // threading rule; the libpulse callbacks run on the mainloop thread, which holds it), except
    // `settings`, guarded by `settingsLock`.
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var connected = false
    var offReason = "not connected"
    /// Names of the samples the server confirmed holding on this connection (sample-cache mode).
    var uploaded: Set<String> = []
    /// Names of every sample of ours that may still be on the server: uploaded on this or an earlier
    /// connection (a dropped connection leaves the server's samples in place) and not yet removed. What
    /// a reconnect and `shutdown` remove, so nothing is left behind.
    var onServer: Set<String> = []
    /// Names of the uploads in progress.
    var uploading: Set<String> = []
    /// Uploads sent and waiting for the server's confirmation (tests read `pendingUploads`).
    var uploadsInFlight = 0
    /// How long the last `shutdown` waited for the server (tests read `shutdownWait`).
    private var lastShutdownWait: Duration = .zero
    /// Whoever wants to hear about state changes (`stateChanges()`).
    private var stateObservers: [UUID: AsyncStream<SoundState>.Continuation] = [:]
    /// The PCM of every loaded sound, by sample name: what is re-uploaded after a reconnect, and in
    /// stream mode what the mixer plays (already converted to the stream's format).
    var held: [String: PCMBuffer] = [:]
    /// The mode of the current connection (`.sampleCache` or `.stream`).
    var activeMode: SoundMode = .sampleCache
    /// Whether the server took the probe upload at the last connect.
    var sampleCacheAvailable = false
    var fallback: FallbackStream?
    /// The read-aloud voice's own stream, opened when it first speaks (see PulseSoundEngine+Speech.swift).
    var speechStream: FallbackStream?
    /// The background sound, looping on its own stream (see PulseSoundEngine+Loop.swift).
    var backgroundLoop: BackgroundLoop?
    private var reconnectDelay = 1.0
    var stopped = false
    private let settingsLock = NSLock()
    private var settings: SoundSettings
    /// Where volume and mute are remembered (nil: not remembered).
    private let settingsFile: URL?
    let server: String?
    /// The mode asked for (`PAJAMA_SOUND_MODE`, or the `start` parameter).
    public let requestedMode: SoundMode
    let queue = DispatchQueue(label: "pajama.audio")
    /// The server's address from the last connection.
    public private(set) var serverInfo: String = ""

    /// Connects to `server` (a PulseAudio address like `unix:/path`), or the default one (PULSE_SERVER,
    /// the runtime folder), in `mode` (by default from `PAJAMA_SOUND_MODE`), with volume and mute read
    /// from and remembered in `settingsFile` (`Paths.soundSettings`; nil: the defaults, not remembered).
    /// Never fails: with no server the engine is off.
    public static func start(server: String? = nil, mode: SoundMode? = nil, settingsFile: URL?) -> PulseSoundEngine {
        let engine = PulseSoundEngine(
            server: server, mode: mode ?? SoundMode.fromEnvironment(ProcessInfo.processInfo.environment), settingsFile: settingsFile)
        engine.connect()
        return engine
    }

    private init(server: String?, mode: SoundMode, settingsFile: URL?) {
        signal(SIGPIPE, SIG_IGN)
        self.server = server
        requestedMode = mode
        self.settingsFile = settingsFile
        settings = settingsFile.map(SoundSettings.load(from:)) ?? SoundSettings()
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        closeStreamsLocked()
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_disconnect(context)
        }
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        if let context { pa_context_unref(context) }
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: Connection

    /// Mute and volume (0-100) now.
    var soundSettings: (muted: Bool, volume: Int) { settingsLock.withLock { (settings.muted, settings.volume) } }

    /// Closes the sounds' fallback stream and the speech stream (a reconnect, a lost server, the end).
    func closeStreamsLocked() {
        fallback?.close()
        fallback = nil
        speechStream?.close()
        speechStream = nil
        closeLoopStreamLocked()
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }

    /// How long connecting waits for the server's answer before sound is off (reading never waits on a
    /// frozen server for longer at start-up).
    static let connectTimeoutMicroseconds: UInt64 = 2_000_000

    /// Connects, waits (at most `connectTimeoutMicroseconds`) for the answer, probes the sample cache and
    /// picks the mode.
    private func connect() {
        lock()
        defer { unlock() }
        closeStreamsLocked()
        if let old = context {
            pa_context_set_state_callback(old, nil, nil)
            pa_context_disconnect(old)
            pa_context_unref(old)
            context = nil
        }
        guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Pajama") else {
            offReason = "cannot create a PulseAudio context"
            return
        }
        context = ctx
        pa_context_set_state_callback(ctx, { ctx, userdata in
            guard let userdata else { return }
            let engine = Unmanaged<PulseSoundEngine>.fromOpaque(userdata).takeUnretainedValue()
            engine.contextChanged(ctx)
        }, Unmanaged.passUnretained(self).toOpaque())
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            offReason = "no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")"
            return
        }
        // A frozen server accepts the connection and never answers (libpulse would wait 30 s): a timer on
        // the mainloop wakes the wait at the deadline, and sound is off.
        let deadline = pa_rtclock_now() + Self.connectTimeoutMicroseconds
        let timer = pa_context_rttime_new(ctx, deadline, { _, _, _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        defer { if let timer { pa_threaded_mainloop_get_api(mainloop).pointee.time_free(timer) } }
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                offReason = "no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")"
                return
            }
            if pa_rtclock_now() >= deadline {
                offReason = "the sound server did not answer within \(Self.connectTimeoutMicroseconds / 1_000_000) s"
                pa_context_set_state_callback(ctx, nil, nil)
                pa_context_disconnect(ctx)
                pa_context_unref(ctx)
                context = nil
                return
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        uploaded = []
        sampleCacheAvailable = probeSampleCache(ctx)
        activeMode = requestedMode == .auto ? (sampleCacheAvailable ? .sampleCache : .stream) : requestedMode
        if activeMode == .stream {
            switch FallbackStream.open(context: ctx, mainloop: mainloop) {
            case .success(let stream):
                fallback = stream
                held = held.mapValues { $0.converted(rate: FallbackStream.rate, channels: FallbackStream.channels) }
            case .failure(let error):
                offReason = "cannot open the sound stream (\(error.reason))"
                return
            }
        }
        if reconnectDelay > 1 { PajamaLog.sound.notice("sound server back", metadata: ["mode": "\(activeMode.rawValue)"]) }
        connected = true
        openLoopLocked()
        reconnectDelay = 1
        serverInfo = pa_context_get_server(ctx).map { String(cString: $0) } ?? ""
        // Sounds unloaded while the connection was down may still be on the server: remove them now.
        for name in onServer where held[name] == nil {
            if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
            onServer.remove(name)
        }
        notifyStateLocked()
    }

    /// Called on the mainloop thread with the lock held.
    private func contextChanged(_ ctx: OpaquePointer?) {
        let state = pa_context_get_state(ctx)
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) && connected && ctx == context {
            connected = false
            uploaded = []
            closeStreamsLocked()
            offReason = "sound server lost"
            PajamaLog.sound.warning("sound server lost; reconnecting in the background")
            scheduleReconnect()
            notifyStateLocked()
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    // MARK: State changes

    /// A stream of the engine's state, sent whenever it changes on its own (the server lost, a
    /// reconnect); every call returns a new, independent stream, finished by `shutdown`.
    public func stateChanges() -> AsyncStream<SoundState> {
        let (stream, continuation) = AsyncStream<SoundState>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        lock()
        if stopped {
            continuation.finish()
        } else {
            stateObservers[id] = continuation
        }
        unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock()
            self.stateObservers[id] = nil
            self.unlock()
        }
        return stream
    }

    /// Tells the observers the current state. Lock held.
    private func notifyStateLocked() {
        let now = stateLocked
        for observer in stateObservers.values { observer.yield(now) }
    }

    private func scheduleReconnect() {
        guard !stopped else { return }
        let delay = reconnectDelay
        reconnectDelay = min(30, reconnectDelay * 2)
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.connect()
            self.lock()
            if !(self.connected || self.stopped) { self.scheduleReconnect() }
            self.unlock()
        }
    }

    // MARK: What SoundClient.live uses

    public var state: SoundState {
        lock()
        defer { unlock() }
        return stateLocked
    }

    /// The state. Lock held.
    private var stateLocked: SoundState {
        if !connected { return .off(reason: offReason) }
        if isMuted { return .muted }
        return activeMode == .stream ? .stream : .sampleCache
    }

    /// Uploads sent and waiting for the server's confirmation (for tests).
    var pendingUploads: Int {
        lock()
        defer { unlock() }
        return uploadsInFlight
    }

    /// How long the last `shutdown` waited for the server (for tests: measured where the wait happens, so
    /// a busy caller's scheduling does not count; set before `shutdown` returns).
    var shutdownWait: Duration {
        lock()
        defer { unlock() }
        return lastShutdownWait
    }

    /// The mode of the current connection (nil when not connected).
    public var mode: SoundMode? {
        lock()
        defer { unlock() }
        return connected ? activeMode : nil
    }

    public var volume: Int {
        get { settingsLock.withLock { settings.volume } }
        set {
            settingsLock.withLock { settings.volume = min(100, max(0, newValue)); remember() }
            updateLoopGain()
        }
    }

    public var isMuted: Bool {
        get { settingsLock.withLock { settings.muted } }
        set {
            settingsLock.withLock { settings.muted = newValue; remember() }
            updateLoopGain()
        }
    }

    /// Saves the settings to `settingsFile` (called with `settingsLock` held).
    private func remember() {
        if let settingsFile { settings.save(to: settingsFile) }
    }

    /// True when the server holds the sound (its upload was confirmed; sample-cache mode).
    package func isUploaded(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        return uploaded.contains(Self.sampleName(key))
    }

    /// True when `play` would play the sound now: uploaded and confirmed (sample cache), or held in
    /// the stream's format with the stream ready (stream mode).
    package func isPlayable(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        guard connected else { return false }
        let name = Self.sampleName(key)
        if activeMode == .stream { return held[name] != nil && fallback?.isReady == true }
        return uploaded.contains(name)
    }

    public func load(_ key: SoundKey, bytes: [UInt8]) async throws(AssetLoadError) -> LoadedSound {
        let decoded = try SoundDecoder.decode(bytes, name: key.path.value)
        let name = Self.sampleName(key)
        let result: Result<PCMBuffer, AssetLoadError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.makePlayable(decoded, name: name, subject: key.path.value)) }
        }
        let pcm = try result.get()
        return LoadedSound(key: key, frames: pcm.frames, sampleRate: pcm.sampleRate, channels: pcm.channels, byteCount: pcm.byteCount)
    }

    /// Holds the sound and makes it playable in the current mode: uploaded and confirmed, or converted
    /// to the stream's format. Runs on `queue`; returns the PCM held.
    private func makePlayable(_ decoded: PCMBuffer, name: String, subject: String) -> Result<PCMBuffer, AssetLoadError> {
        lock()
        let streaming = connected && activeMode == .stream
        unlock()
        // Convert outside the lock: the mainloop keeps running meanwhile.
        let pcm = streaming ? decoded.converted(rate: FallbackStream.rate, channels: FallbackStream.channels) : decoded
        lock()
        defer { unlock() }
        held[name] = pcm
        guard connected, let ctx = context else { return .failure(AssetLoadError(.network, subject: subject, detail: offReason)) }
        if activeMode == .stream {
            if pcm.sampleRate != FallbackStream.rate || pcm.channels != FallbackStream.channels {
                // The mode changed while converting (a reconnect): convert for the stream now.
                held[name] = pcm.converted(rate: FallbackStream.rate, channels: FallbackStream.channels)
            }
            return .success(held[name] ?? pcm)
        }
        return uploadLocked(pcm, name: name, subject: subject, context: ctx).map { pcm }
    }

    @discardableResult
    public func play(_ sound: LoadedSound) -> Bool {
        let name = Self.sampleName(sound.key)
        let (muted, level) = soundSettings
        let properties = SoundProperties(sound.key)
        lock()
        defer { unlock() }
        guard connected, let ctx = context else { return false }
        if activeMode == .stream {
            guard let fallback, fallback.isReady, let pcm = held[name] else { return false }
            if !muted { fallback.start(pcm, gain: Float(level) / 100) }
            return true
        }
        if muted { return true }
        guard uploaded.contains(name) else {
            // The server lost it (it restarted): upload again from the PCM we hold, then play.
            guard let pcm = held[name] else { return false }
            queue.async { [weak self] in
                guard let self else { return }
                self.lock()
                let done = self.context.map { self.uploadLocked(pcm, name: name, subject: sound.key.path.value, context: $0) }
                self.unlock()
                if case .success = done { self.play(sound) }
            }
            return true
        }
        let volume = pa_sw_volume_from_linear(Double(level) / 100)
        if let operation = pa_context_play_sample_with_proplist(ctx, name, nil, volume, properties.pointer, nil, nil) {
            pa_operation_unref(operation)
        }
        return true
    }

    public func unload(_ sound: LoadedSound) async {
        let name = Self.sampleName(sound.key)
        lock()
        defer { unlock() }
        held[name] = nil
        uploaded.remove(name)
        // While disconnected the sample stays in `onServer`: the next connect or `shutdown` removes it.
        guard onServer.contains(name), connected, let ctx = context else { return }
        if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
        onServer.remove(name)
    }

    /// How long `shutdown` waits for the server to take the removal of our samples before it
    /// disconnects anyway: quitting never waits on a stuck server.
    public static let shutdownBound: Duration = .milliseconds(300)

    /// Removes every sample of ours from the server, closes the stream and disconnects (on quit). Returns
    /// within `shutdownBound` (plus scheduling) whatever the server does: the removals are sent at once;
    /// a frozen server finds them in its socket when it runs again.
    public func shutdown() async {
        lock()
        stopped = true
        closeStreamsLocked()
        backgroundLoop = nil
        var drain: OpaquePointer?
        let ctx = connected ? context : nil
        if let ctx {
            for name in onServer.union(uploaded).union(uploading) {
                if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
            }
            onServer = []
            drain = pa_context_drain(ctx, nil, nil)
        }
        uploaded = []
        held = [:]
        connected = false
        offReason = "stopped"
        let observers = stateObservers.values
        stateObservers = [:]
        unlock()
        if let drain { await waitForDrain(drain) }
        lock()
        if let drain {
            pa_operation_cancel(drain)
            pa_operation_unref(drain)
        }
        if let ctx { pa_context_disconnect(ctx) }
        unlock()
        for observer in observers { observer.finish() }
    }

    /// Waits until the server answered every request sent before `drain`, or `shutdownBound` passed. The
    /// mainloop has no timed wait, so a Dispatch thread polls it: the wait never depends on the Swift
    /// concurrency pool, which busy callers may be holding.
    private func waitForDrain(_ drain: OpaquePointer) async {
        // Safe: the operation is only read with the mainloop lock held, and released by the caller after.
        nonisolated(unsafe) let operation = drain
        let bound = Self.shutdownBound.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(bound.seconds) * 1_000_000_000 + Int(bound.attoseconds / 1_000_000_000))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                let start = ContinuousClock.now
                while DispatchTime.now() < deadline {
                    self.lock()
                    let running = pa_operation_get_state(operation) == PA_OPERATION_RUNNING
                    self.unlock()
                    if !running { break }
                    usleep(2_000)
                }
                // Recorded before `shutdown` is resumed (a `defer` here ran after the resume, racing the
                // caller's read: found by ThreadSanitizer).
                self.lock()
                self.lastShutdownWait = ContinuousClock.now - start
                self.unlock()
                continuation.resume()
            }
        }
    }

    /// libpulse's version.
    public static var libraryVersion: String { String(cString: pa_get_library_version()) }
}
