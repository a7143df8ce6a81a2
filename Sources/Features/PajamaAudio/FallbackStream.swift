import CPulse

/// The fallback for servers without a sample cache: one playback stream, opened at connect and kept
/// running, float32 stereo 48 kHz with a 15 ms target latency (`PA_STREAM_ADJUST_LATENCY` and a small
/// `tlength`, so the server sizes its own buffers to match). Its write callback renders the mixer:
/// silence when nothing plays, else the sum of the voices. Starting a sound only adds a voice.
///
/// Every member is used with the engine's mainloop lock held (the write callback runs on the mainloop
/// thread, which holds it), so the stream and the mixer have one owner at a time.
public final class FallbackStream {
    /// The stream's format; sounds are converted to it once, when they are loaded.
    public static let rate = 48_000
    public static let channels = 2
    /// Target latency of the stream.
    static let targetLatencyMicroseconds: UInt64 = 15_000
    /// The same, in milliseconds, for messages and the bench.
    public static let targetLatencyMilliseconds = 15

    private let stream: OpaquePointer
    private var mixer = StreamMixer(channels: channels)

    /// Opens the stream on `context` and waits (releasing the lock through `pa_threaded_mainloop_wait`)
    /// until it is ready. Returns nil with the server's reason when it cannot be opened.
    /// `name` and `role` are what the server shows (`media.name`, `media.role`): the story's sounds, or
    /// the read-aloud voice ("Pajama speech", "a11y"), the background sound ("Pajama background", "music").
    static func open(
        context: OpaquePointer, mainloop: OpaquePointer, name: String = "Pajama sounds", role: String = "event"
    ) -> Result<FallbackStream, StreamError> {
        var spec = pa_sample_spec(format: PAJAMA_PA_SAMPLE_FLOAT32NE, rate: UInt32(rate), channels: UInt8(channels))
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, role)
        pa_proplist_sets(properties, PA_PROP_MEDIA_NAME, name)
        guard let stream = pa_stream_new_with_proplist(context, name, &spec, nil, properties) else {
            return .failure(StreamError(reason: String(cString: pa_strerror(pa_context_errno(context)))))
        }
        let fallback = FallbackStream(stream: stream)
        pa_stream_set_state_callback(stream, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        pa_stream_set_write_callback(stream, { stream, bytes, userdata in
            guard let userdata else { return }
            Unmanaged<FallbackStream>.fromOpaque(userdata).takeUnretainedValue().fill(stream, bytes)
        }, Unmanaged.passUnretained(fallback).toOpaque())
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(pa_usec_to_bytes(targetLatencyMicroseconds, &spec)),
            prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        guard pa_stream_connect_playback(stream, nil, &attributes, flags, nil, nil) >= 0 else {
            fallback.close()
            return .failure(StreamError(reason: String(cString: pa_strerror(pa_context_errno(context)))))
        }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING { pa_threaded_mainloop_wait(mainloop) }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            fallback.close()
            return .failure(StreamError(reason: "the server refused the playback stream"))
        }
        return .success(fallback)
    }

    /// Why the stream could not be opened.
    struct StreamError: Error {
        var reason: String
    }

    private init(stream: OpaquePointer) { self.stream = stream }

    /// True while the stream can play.
    var isReady: Bool { pa_stream_get_state(stream) == PA_STREAM_READY }

    /// Starts a sound already converted to the stream's format.
    func start(_ buffer: PCMBuffer, gain: Float) {
        mixer.start(buffer, gain: gain)
    }

    /// Starts a sound (at the stream's format) once the ones playing have ended.
    func startAfterOthers(_ buffer: PCMBuffer, gain: Float) {
        mixer.startAfterOthers(buffer, gain: gain)
    }

    /// Starts a sound (at the stream's format) looping until `stopAll` or `close`.
    func startLooping(_ buffer: PCMBuffer, gain: Float) {
        mixer.startLooping(buffer, gain: gain)
    }

    /// Sets the gain of every sound playing (a background sound following the volume and mute).
    func setGain(_ gain: Float) { mixer.setGain(gain) }

    /// Stops every sound playing.
    func stopAll() { mixer.stopAll() }

    /// Disconnects and releases the stream (the callbacks are removed first, so none runs after).
    func close() {
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        mixer.stopAll()
        if pa_stream_get_state(stream) == PA_STREAM_READY { pa_stream_disconnect(stream) }
        pa_stream_unref(stream)
    }

    /// The write callback: render what the server asks for straight into its buffer.
    private func fill(_ stream: OpaquePointer?, _ requested: Int) {
        var data: UnsafeMutableRawPointer?
        var size = requested
        guard pa_stream_begin_write(stream, &data, &size) >= 0, let data else { return }
        let frameBytes = Self.channels * MemoryLayout<Float>.size
        size -= size % frameBytes
        guard size > 0 else {
            pa_stream_cancel_write(stream)
            return
        }
        let floats = data.bindMemory(to: Float.self, capacity: size / MemoryLayout<Float>.size)
        mixer.render(into: UnsafeMutableBufferPointer(start: floats, count: size / MemoryLayout<Float>.size))
        pa_stream_write(stream, data, size, nil, 0, PA_SEEK_RELATIVE)
    }
}
