import CPulse
import Dispatch
import Foundation
import PajamaCore

/// Sound through PulseAudio's sample cache: "load" decodes with libsndfile and uploads the PCM to the
/// server, completing only when the server confirms; "play" is one `pa_context_play_sample` request,
/// with no decoding or streaming on the hot path, so sounds overlap freely.
///
/// With no server the engine is `.off` and every load fails fast (reading never waits on sound). When
/// the server goes away the engine goes silent, reconnects in the background with backoff, and
/// re-uploads sounds lazily from the PCM it keeps.
public final class PulseSoundEngine: SoundEngine, @unchecked Sendable {
    // Safe: every mutable property is read and written with `mainloop`'s lock held (libpulse's own
    // threading rule), except `settings`, guarded by `settingsLock`.
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    private var connected = false
    private var offReason = "not connected"
    private var uploaded: Set<String> = []
    private var held: [String: PCMBuffer] = [:]
    private var reconnectDelay = 1.0
    private var stopped = false
    private let settingsLock = NSLock()
    private var settings: SoundSettings
    private let server: String?
    private let queue = DispatchQueue(label: "pajama.audio")
    /// Server description from the last connection, for `pajama doctor`.
    public private(set) var serverInfo: String = ""

    /// Connects to `server` (a PulseAudio address like `unix:/path`), or the default one (PULSE_SERVER,
    /// XDG_RUNTIME_DIR). Never fails: with no server the engine is off.
    public static func start(server: String? = nil) -> PulseSoundEngine {
        let engine = PulseSoundEngine(server: server)
        engine.connect()
        return engine
    }

    private init(server: String?) {
        signal(SIGPIPE, SIG_IGN)
        self.server = server
        settings = SoundSettings.load()
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_start(mainloop)
    }

    deinit {
        pa_threaded_mainloop_stop(mainloop)
        if let context { pa_context_unref(context) }
        pa_threaded_mainloop_free(mainloop)
    }

    // MARK: Connection

    private func lock() { pa_threaded_mainloop_lock(mainloop) }
    private func unlock() { pa_threaded_mainloop_unlock(mainloop) }

    /// Connects and waits (briefly) for the answer.
    private func connect() {
        lock()
        defer { unlock() }
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
            if state == PA_CONTEXT_READY {
                connected = true
                uploaded = []
                reconnectDelay = 1
                serverInfo = pa_context_get_server(ctx).map { String(cString: $0) } ?? ""
                return
            }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                offReason = "no sound server (" + String(cString: pa_strerror(pa_context_errno(ctx))) + ")"
                return
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Called on the mainloop thread with the lock held.
    private func contextChanged(_ ctx: OpaquePointer?) {
        let state = pa_context_get_state(ctx)
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) && connected && ctx == context {
            connected = false
            uploaded = []
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
            let ok = self.connected || self.stopped
            self.unlock()
            if !ok {
                self.lock()
                self.scheduleReconnect()
                self.unlock()
            }
        }
    }

    // MARK: SoundEngine

    public var state: SoundState {
        lock()
        defer { unlock() }
        if !connected { return .off(reason: offReason) }
        return isMuted ? .muted : .sampleCache
    }

    public var volume: Int {
        get { settingsLock.withLock { settings.volume } }
        set { settingsLock.withLock { settings.volume = min(100, max(0, newValue)); settings.save() } }
    }

    public var isMuted: Bool {
        get { settingsLock.withLock { settings.muted } }
        set { settingsLock.withLock { settings.muted = newValue; settings.save() } }
    }

    /// True when the server holds the sound (its upload was confirmed).
    public func isUploaded(_ key: SoundKey) -> Bool {
        lock()
        defer { unlock() }
        return uploaded.contains(Self.sampleName(key))
    }

    public func load(_ key: SoundKey, bytes: [UInt8]) async throws(AssetLoadError) -> LoadedSound {
        let pcm = try SoundDecoder.decode(bytes, name: key.path.value)
        let name = Self.sampleName(key)
        let result: Result<Void, AssetLoadError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.upload(pcm, name: name, subject: key.path.value)) }
        }
        try result.get()
        return LoadedSound(key: key, frames: pcm.frames, sampleRate: pcm.sampleRate, channels: pcm.channels, byteCount: pcm.byteCount)
    }

    /// Uploads PCM to the sample cache and waits for the server's confirmation. Runs on `queue`.
    private func upload(_ pcm: PCMBuffer, name: String, subject: String) -> Result<Void, AssetLoadError> {
        lock()
        defer { unlock() }
        held[name] = pcm
        guard connected, let ctx = context else { return .failure(AssetLoadError(.network, subject: subject, detail: offReason)) }
        var spec = pa_sample_spec(format: PAJAMA_PA_SAMPLE_FLOAT32NE, rate: UInt32(pcm.sampleRate), channels: UInt8(pcm.channels))
        guard let stream = pa_stream_new(ctx, name, &spec, nil) else {
            return .failure(AssetLoadError(.decoding, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        defer { pa_stream_unref(stream) }
        pa_stream_set_state_callback(stream, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        let length = pcm.byteCount
        guard pa_stream_connect_upload(stream, length) >= 0 else {
            return .failure(AssetLoadError(.network, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING { pa_threaded_mainloop_wait(mainloop) }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            return .failure(AssetLoadError(.network, subject: subject, detail: "the server refused the upload"))
        }
        let written = pcm.samples.withUnsafeBytes { raw in
            pa_stream_write(stream, raw.baseAddress, length, nil, 0, PA_SEEK_RELATIVE)
        }
        guard written >= 0, pa_stream_finish_upload(stream) >= 0 else {
            return .failure(AssetLoadError(.network, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        while pa_stream_get_state(stream) == PA_STREAM_READY { pa_threaded_mainloop_wait(mainloop) }
        pa_stream_set_state_callback(stream, nil, nil)
        guard pa_stream_get_state(stream) == PA_STREAM_TERMINATED else {
            return .failure(AssetLoadError(.network, subject: subject, detail: "the upload failed"))
        }
        uploaded.insert(name)
        return .success(())
    }

    @discardableResult
    public func play(_ sound: LoadedSound) -> Bool {
        let name = Self.sampleName(sound.key)
        let (muted, level) = settingsLock.withLock { (settings.muted, settings.volume) }
        lock()
        defer { unlock() }
        guard connected, let ctx = context else { return false }
        if muted { return true }
        guard uploaded.contains(name) else {
            // The server lost it (it restarted): upload again from the PCM we hold, then play.
            guard let pcm = held[name] else { return false }
            queue.async { [weak self] in
                guard let self, case .success = self.upload(pcm, name: name, subject: sound.key.path.value) else { return }
                self.play(sound)
            }
            return true
        }
        let volume = pa_sw_volume_from_linear(Double(level) / 100)
        if let operation = pa_context_play_sample(ctx, name, nil, volume, nil, nil) { pa_operation_unref(operation) }
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

    /// Removes every sample of ours from the server and disconnects (on quit).
    public func shutdown() async {
        lock()
        stopped = true
        if connected, let ctx = context {
            for name in uploaded {
                if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
            }
            uploaded = []
            held = [:]
            // Let the removals reach the server before disconnecting.
            if let drain = pa_context_drain(ctx, { _, userdata in pa_threaded_mainloop_signal(OpaquePointer(userdata), 0) },
                                            UnsafeMutableRawPointer(mainloop)) {
                while pa_operation_get_state(drain) == PA_OPERATION_RUNNING { pa_threaded_mainloop_wait(mainloop) }
                pa_operation_unref(drain)
            }
            pa_context_disconnect(ctx)
        }
        connected = false
        offReason = "stopped"
        unlock()
    }

    // MARK: Names

    /// The server-side name of a sound: unique per story, version and path. PulseAudio accepts only
    /// `A-Z a-z 0-9 _ - .` in names, so other characters become `_` and a hash of the full key keeps
    /// names distinct.
    public static func sampleName(_ key: SoundKey) -> String {
        let raw = "\(key.storyId)@\(key.storyVersion ?? "-"):\(key.path.value)"
        let safe = String(raw.unicodeScalars.map { s -> Character in
            (s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "-_.".unicodeScalars.contains(s))) ? Character(s) : "_"
        })
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in raw.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return "pajama." + String(safe.prefix(80)) + "." + String(h, radix: 16)
    }

    /// libpulse's version.
    public static var libraryVersion: String { String(cString: pa_get_library_version()) }
}
