import CPulse
import Dispatch
import Foundation
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
public final class PulseSoundEngine: SoundEngine, @unchecked Sendable {
    // Safe: every mutable property is read and written with `mainloop`'s lock held (libpulse's own
    // threading rule; the libpulse callbacks run on the mainloop thread, which holds it), except
    // `settings`, guarded by `settingsLock`.
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var connected = false
    var offReason = "not connected"
    /// Names of the samples the server confirmed holding (sample-cache mode).
    var uploaded: Set<String> = []
    /// The PCM of every loaded sound, by sample name: what is re-uploaded after a reconnect, and in
    /// stream mode what the mixer plays (already converted to the stream's format).
    var held: [String: PCMBuffer] = [:]
    /// The mode of the current connection (`.sampleCache` or `.stream`).
    var activeMode: SoundMode = .sampleCache
    /// Whether the server took the probe upload at the last connect.
    var sampleCacheAvailable = false
    var fallback: FallbackStream?
    private var reconnectDelay = 1.0
    private var stopped = false
    private let settingsLock = NSLock()
    private var settings: SoundSettings
    let server: String?
    /// The mode asked for (`PAJAMA_SOUND_MODE`, or the `start` parameter).
    public let requestedMode: SoundMode
    let queue = DispatchQueue(label: "pajama.audio")
    /// The server's address from the last connection.
    public private(set) var serverInfo: String = ""

    /// Connects to `server` (a PulseAudio address like `unix:/path`), or the default one (PULSE_SERVER,
    /// XDG_RUNTIME_DIR), in `mode` (by default from `PAJAMA_SOUND_MODE`). Never fails: with no server
    /// the engine is off.
    public static func start(server: String? = nil, mode: SoundMode? = nil) -> PulseSoundEngine {
        let engine = PulseSoundEngine(server: server, mode: mode ?? SoundMode.fromEnvironment(ProcessInfo.processInfo.environment))
        engine.connect()
        return engine
    }

    private init(server: String?, mode: SoundMode) {
        signal(SIGPIPE, SIG_IGN)
        self.server = server
        requestedMode = mode
        settings = SoundSettings.load()
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        fallback?.close()
        fallback = nil
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

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }

    /// Connects, waits (briefly) for the answer, probes the sample cache and picks the mode.
    private func connect() {
        lock()
        defer { unlock() }
        fallback?.close()
        fallback = nil
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
        while true {
            let state = pa_context_get_state(ctx)
            if state == PA_CONTEXT_READY { break }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                offReason = "no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")"
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
        connected = true
        reconnectDelay = 1
        serverInfo = pa_context_get_server(ctx).map { String(cString: $0) } ?? ""
    }

    /// Called on the mainloop thread with the lock held.
    private func contextChanged(_ ctx: OpaquePointer?) {
        let state = pa_context_get_state(ctx)
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) && connected && ctx == context {
            connected = false
            uploaded = []
            fallback?.close()
            fallback = nil
            offReason = "sound server lost"
            scheduleReconnect()
        }
        pa_threaded_mainloop_signal(mainloop, 0)
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

    // MARK: SoundEngine

    public var state: SoundState {
        lock()
        defer { unlock() }
        if !connected { return .off(reason: offReason) }
        if isMuted { return .muted }
        return activeMode == .stream ? .stream : .sampleCache
    }

    /// The mode of the current connection (nil when not connected).
    public var mode: SoundMode? {
        lock()
        defer { unlock() }
        return connected ? activeMode : nil
    }

    public var volume: Int {
        get { settingsLock.withLock { settings.volume } }
        set { settingsLock.withLock { settings.volume = min(100, max(0, newValue)); settings.save() } }
    }

    public var isMuted: Bool {
        get { settingsLock.withLock { settings.muted } }
        set { settingsLock.withLock { settings.muted = newValue; settings.save() } }
    }

    /// True when the server holds the sound (its upload was confirmed; sample-cache mode).
    public func isUploaded(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        return uploaded.contains(Self.sampleName(key))
    }

    /// True when `play` would play the sound now: uploaded and confirmed (sample cache), or held in
    /// the stream's format with the stream ready (stream mode).
    public func isPlayable(_ key: SoundKey) -> Bool {
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
        let (muted, level) = settingsLock.withLock { (settings.muted, settings.volume) }
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
        guard uploaded.remove(name) != nil, connected, let ctx = context else { return }
        if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
    }

    /// Removes every sample of ours from the server, closes the stream and disconnects (on quit).
    public func shutdown() async {
        lock()
        stopped = true
        fallback?.close()
        fallback = nil
        if connected, let ctx = context {
            for name in uploaded {
                if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
            }
            uploaded = []
            held = [:]
            waitForDrain(ctx)
            pa_context_disconnect(ctx)
        }
        connected = false
        offReason = "stopped"
        unlock()
    }

    /// Waits until every request sent on `ctx` reached the server. Lock held.
    func waitForDrain(_ ctx: OpaquePointer) {
        guard let drain = pa_context_drain(ctx, { _, userdata in pa_threaded_mainloop_signal(OpaquePointer(userdata), 0) },
                                           UnsafeMutableRawPointer(mainloop)) else { return }
        while pa_operation_get_state(drain) == PA_OPERATION_RUNNING { pa_threaded_mainloop_wait(mainloop) }
        pa_operation_unref(drain)
    }

    /// libpulse's version.
    public static var libraryVersion: String { String(cString: pa_get_library_version()) }
}
