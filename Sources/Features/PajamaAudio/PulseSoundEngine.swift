import CPulse
import Dispatch
import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaModel
import PajamaStorage

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
    // Safe: `connectionState`, `memory` and `stateObservers` are only read and written with `mainloop`'s lock held
    // (libpulse's own threading rule; the libpulse callbacks run on the mainloop thread, which holds it).
    let mainloop: OpaquePointer
    /// Where the engine is with the server (PulseSoundEngine+State.swift).
    var connectionState = State.disconnected(reason: "not connected", context: nil)
    /// What the engine holds whatever the connection: the sounds' PCM, the samples on the server, the
    /// background sound wanted.
    var memory = Memory()
    /// Whoever wants to hear about state changes (`stateChanges()`).
    private var stateObservers: [UUID: AsyncStream<SoundState>.Continuation] = [:]
    private let settings: Locked<SoundSettings>
    let server: String?
    /// The mode asked for (`PAJAMA_SOUND_MODE`, or the `start` parameter).
    public let requestedMode: SoundMode
    let queue = DispatchQueue(label: "pajama.audio")

    /// The server's address from the last connection.
    public var serverInfo: String {
        lock()
        defer { unlock() }
        return memory.serverInfo
    }

    /// Connects to `server` (a PulseAudio address like `unix:/path`), or the default one (PULSE_SERVER,
    /// the runtime folder), in `mode` (by default from `PAJAMA_SOUND_MODE`), with volume and mute read
    /// from `settingsFile` of `files` (`Paths.soundSettings`; nil: the defaults). The engine never writes it: the
    /// reader remembers a change behind it, through its reading's writer (`ReaderViewModel.remember`).
    /// Never fails: with no server the engine is off.
    public static func start(server: String? = nil, mode: SoundMode? = nil, settingsFile: URL?, files: SavedFiles = .disk) -> PulseSoundEngine {
        let engine = PulseSoundEngine(
            server: server, mode: mode ?? SoundMode.fromEnvironment(ProcessInfo.processInfo.environment),
            settings: settingsFile.map { SoundSettings.load(from: $0, files: files) } ?? SoundSettings())
        engine.connect()
        return engine
    }

    private init(server: String?, mode: SoundMode, settings: SoundSettings) {
        signal(SIGPIPE, SIG_IGN)
        self.server = server
        requestedMode = mode
        self.settings = Locked(settings)
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        pa_threaded_mainloop_lock(mainloop)
        closeStreamsLocked()
        let context = connectionState.context
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
    var soundSettings: (muted: Bool, volume: Int) { settings.withLock { ($0.muted, $0.volume) } }

    /// Closes the sounds' fallback stream, the speech stream and the background sound's (a reconnect, a
    /// lost server, the end).
    func closeStreamsLocked() {
        updateConnection { connection in
            connection.fallback?.close()
            connection.fallback = nil
            connection.speech?.close()
            connection.speech = nil
        }
        closeLoopStreamLocked()
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }

    /// How long connecting waits for the server's answer before sound is off (reading never waits on a
    /// frozen server for longer at start-up).
    static let connectTimeoutMicroseconds: UInt64 = 2_000_000

    /// Connects, waits (at most `connectTimeoutMicroseconds`) for the answer, probes the sample cache and
    /// picks the mode. `retrying` is the delay this reconnect waited (nil: the first connect), so a failure
    /// leaves the engine `reconnecting` rather than `disconnected`.
    private func connect(retrying: Double? = nil) {
        lock()
        defer { unlock() }
        let old: OpaquePointer?
        let before: String
        switch connectionState {
        case .stopped, .connecting, .ready: return
        case .disconnected(let reason, let context), .reconnecting(let reason, let context):
            old = context
            before = reason
        }
        closeStreamsLocked()
        if let old {
            pa_context_set_state_callback(old, nil, nil)
            pa_context_disconnect(old)
            pa_context_unref(old)
        }
        func off(_ reason: String, context: OpaquePointer?) {
            connectionState = retrying == nil ? .disconnected(reason: reason, context: context) : .reconnecting(reason: reason, context: context)
            // Said once, here: the sounds of the story are then not played, each without a line of its own.
            if retrying == nil { PajamaLog.sound.warning("sound is off: \(reason); reading goes on silently") }
        }
        guard let ctx = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Pajama") else {
            off("cannot create a PulseAudio context", context: nil)
            return
        }
        connectionState = .connecting(ctx, reason: before)
        pa_context_set_state_callback(ctx, { ctx, userdata in
            guard let userdata else { return }
            let engine = Unmanaged<PulseSoundEngine>.fromOpaque(userdata).takeUnretainedValue()
            engine.contextChanged(ctx)
        }, Unmanaged.passUnretained(self).toOpaque())
        if pa_context_connect(ctx, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            off("no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")", context: ctx)
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
            // `shutdown` ran while the server was answering (the waits release the lock): it owns the context now.
            if connectionState.isStopped { return }
            let answer = pa_context_get_state(ctx)
            if answer == PA_CONTEXT_READY { break }
            if answer == PA_CONTEXT_FAILED || answer == PA_CONTEXT_TERMINATED {
                off("no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")", context: ctx)
                return
            }
            if pa_rtclock_now() >= deadline {
                pa_context_set_state_callback(ctx, nil, nil)
                pa_context_disconnect(ctx)
                pa_context_unref(ctx)
                off("the sound server did not answer within \(Self.connectTimeoutMicroseconds / 1_000_000) s", context: nil)
                return
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        let sampleCache = probeSampleCache(ctx)
        let mode = requestedMode == .auto ? (sampleCache ? .sampleCache : .stream) : requestedMode
        var connection = Connection(context: ctx, mode: mode, sampleCacheAvailable: sampleCache)
        if mode == .stream {
            let opened = FallbackStream.open(context: ctx, mainloop: mainloop)
            if connectionState.isStopped {
                if case .success(let stream) = opened { stream.close() }
                return
            }
            switch opened {
            case .success(let stream):
                connection.fallback = stream
                memory.held = memory.held.mapValues { $0.converted(rate: FallbackStream.rate, channels: FallbackStream.channels) }
            case .failure(let error):
                off("cannot open the sound stream (\(error.reason))", context: ctx)
                return
            }
        }
        guard !connectionState.isStopped else { return }
        if retrying != nil { PajamaLog.sound.notice("sound server back", metadata: ["mode": "\(mode.rawValue)"]) }
        connectionState = .ready(connection)
        openLoopLocked()
        memory.serverInfo = pa_context_get_server(ctx).map { String(cString: $0) } ?? ""
        // Sounds unloaded while the connection was down may still be on the server: remove them now.
        for name in memory.onServer where memory.held[name] == nil {
            if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
            memory.onServer.remove(name)
        }
        notifyStateLocked()
    }

    /// Called on the mainloop thread with the lock held.
    private func contextChanged(_ ctx: OpaquePointer?) {
        let answer = pa_context_get_state(ctx)
        if answer == PA_CONTEXT_FAILED || answer == PA_CONTEXT_TERMINATED, let connection = connectionState.connection, connection.context == ctx {
            closeStreamsLocked()
            connectionState = .reconnecting(reason: "sound server lost", context: connection.context)
            PajamaLog.sound.warning("sound server lost; reconnecting in the background")
            scheduleReconnect(after: 1)
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
        if connectionState.isStopped {
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

    /// Tries to connect again after `delay` seconds, then again with the delay doubled (30 s at most)
    /// while the engine stays `reconnecting`.
    private func scheduleReconnect(after delay: Double) {
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.connect(retrying: delay)
            self.lock()
            let again = if case .reconnecting = self.connectionState { true } else { false }
            self.unlock()
            if again { self.scheduleReconnect(after: min(30, delay * 2)) }
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
        guard let connection = connectionState.connection else { return .off(reason: connectionState.offReason) }
        if isMuted { return .muted }
        return connection.mode == .stream ? .stream : .sampleCache
    }

    /// Uploads sent and waiting for the server's confirmation (for tests).
    var pendingUploads: Int {
        lock()
        defer { unlock() }
        return memory.uploadsInFlight
    }

    /// How long the last `shutdown` waited for the server (for tests: measured where the wait happens, so
    /// a busy caller's scheduling does not count; set before `shutdown` returns).
    var shutdownWait: Duration {
        lock()
        defer { unlock() }
        return memory.lastShutdownWait
    }

    /// The mode of the current connection (nil when not connected).
    public var mode: SoundMode? {
        lock()
        defer { unlock() }
        return connectionState.connection?.mode
    }

    /// The volume (0-100); a change applies at once (the background sound too) and is not written here.
    public var volume: Int {
        get { settings.withLock { $0.volume } }
        set {
            settings.withLock { $0.volume = min(100, max(0, newValue)) }
            updateLoopGain()
        }
    }

    /// Mute; a change applies at once (the background sound too) and is not written here.
    public var isMuted: Bool {
        get { settings.withLock { $0.muted } }
        set {
            settings.withLock { $0.muted = newValue }
            updateLoopGain()
        }
    }

    /// True when the server holds the sound (its upload was confirmed; sample-cache mode).
    package func isUploaded(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        return connectionState.connection?.uploaded.contains(Self.sampleName(key)) ?? false
    }

    /// True when `play` would play the sound now: uploaded and confirmed (sample cache), or held in
    /// the stream's format with the stream ready (stream mode).
    package func isPlayable(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        guard let connection = connectionState.connection else { return false }
        let name = Self.sampleName(key)
        if connection.mode == .stream { return memory.held[name] != nil && connection.fallback?.isReady == true }
        return connection.uploaded.contains(name)
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
        let streaming = connectionState.connection?.mode == .stream
        unlock()
        // Convert outside the lock: the mainloop keeps running meanwhile.
        let pcm = streaming ? decoded.converted(rate: FallbackStream.rate, channels: FallbackStream.channels) : decoded
        lock()
        defer { unlock() }
        memory.held[name] = pcm
        guard let connection = connectionState.connection else {
            return .failure(AssetLoadError(.soundOff, subject: subject, detail: connectionState.offReason))
        }
        if connection.mode == .stream {
            if pcm.sampleRate != FallbackStream.rate || pcm.channels != FallbackStream.channels {
                // The mode changed while converting (a reconnect): convert for the stream now.
                memory.held[name] = pcm.converted(rate: FallbackStream.rate, channels: FallbackStream.channels)
            }
            return .success(memory.held[name] ?? pcm)
        }
        return uploadLocked(pcm, name: name, subject: subject, context: connection.context).map { pcm }
    }

    @discardableResult
    public func play(_ sound: LoadedSound) -> Bool {
        let name = Self.sampleName(sound.key)
        let (muted, level) = soundSettings
        let properties = SoundProperties(sound.key)
        lock()
        defer { unlock() }
        guard let connection = connectionState.connection else { return false }
        if connection.mode == .stream {
            guard let fallback = connection.fallback, fallback.isReady, let pcm = memory.held[name] else { return false }
            if !muted { fallback.start(pcm, gain: Float(level) / 100) }
            return true
        }
        if muted { return true }
        guard connection.uploaded.contains(name) else {
            // The server lost it (it restarted): upload again from the PCM we hold, then play.
            guard let pcm = memory.held[name] else { return false }
            queue.async { [weak self] in
                guard let self else { return }
                self.lock()
                let done = self.connectionState.connection.map {
                    self.uploadLocked(pcm, name: name, subject: sound.key.path.value, context: $0.context)
                }
                self.unlock()
                if case .success = done { self.play(sound) }
            }
            return true
        }
        let volume = pa_sw_volume_from_linear(Double(level) / 100)
        if let operation = pa_context_play_sample_with_proplist(connection.context, name, nil, volume, properties.pointer, nil, nil) {
            pa_operation_unref(operation)
        }
        return true
    }

    public func unload(_ sound: LoadedSound) async {
        let name = Self.sampleName(sound.key)
        lock()
        defer { unlock() }
        memory.held[name] = nil
        updateConnection { $0.uploaded.remove(name) }
        // While disconnected the sample stays in `onServer`: the next connect or `shutdown` removes it.
        guard memory.onServer.contains(name), let connection = connectionState.connection else { return }
        if let operation = pa_context_remove_sample(connection.context, name, nil, nil) { pa_operation_unref(operation) }
        memory.onServer.remove(name)
    }

    /// How long `shutdown` waits for the server to take the removal of our samples before it
    /// disconnects anyway: quitting never waits on a stuck server.
    public static let shutdownBound: Duration = .milliseconds(300)

    /// Removes every sample of ours from the server, closes the stream and disconnects (on quit). Returns
    /// within `shutdownBound` (plus scheduling) whatever the server does: the removals are sent at once;
    /// a frozen server finds them in its socket when it runs again.
    public func shutdown() async {
        lock()
        let connection = connectionState.connection
        closeStreamsLocked()
        memory.loop = nil
        var drain: OpaquePointer?
        if let connection {
            for name in memory.onServer.union(connection.uploaded).union(memory.uploading) {
                if let operation = pa_context_remove_sample(connection.context, name, nil, nil) { pa_operation_unref(operation) }
            }
            memory.onServer = []
            drain = pa_context_drain(connection.context, nil, nil)
        }
        memory.held = [:]
        connectionState = .stopped(context: connectionState.context)
        let observers = stateObservers.values
        stateObservers = [:]
        unlock()
        if let drain { await waitForDrain(drain) }
        lock()
        if let drain {
            pa_operation_cancel(drain)
            pa_operation_unref(drain)
        }
        if let connection { pa_context_disconnect(connection.context) }
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
                self.memory.lastShutdownWait = ContinuousClock.now - start
                self.unlock()
                continuation.resume()
            }
        }
    }

    /// libpulse's version.
    public static var libraryVersion: String { String(cString: pa_get_library_version()) }
}
