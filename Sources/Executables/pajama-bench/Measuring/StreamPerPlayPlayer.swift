import CPulse
import Foundation
import PajamaAudio
import PajamaModel

/// The bench's baseline, the way paplay (or an interpreter like Frotz) plays a sound: on every play,
/// decode the file's bytes, open a new playback stream with default buffering, write the PCM and drain
/// the stream (a short sound starts playing at the drain); the stream is closed once drained.
final class StreamPerPlayPlayer: @unchecked Sendable {
    // Safe: `playing` and `closed` are read and written only with the client's mainloop lock held.
    private let client: PulseClient
    private var playing: Set<OpaquePointer> = []
    private var closed = false
    /// Whether the client may still be used (close runs once).
    private let isOpen = Locked(true)

    init(server: String?) throws(MeasuringError) {
        client = try PulseClient(server: server, name: "Pajama bench stream-per-play")
    }

    deinit { close() }

    /// Decodes `bytes` and plays them on a new stream; returns once the whole sound is written.
    func play(_ bytes: [UInt8], name: String) throws {
        let pcm = try SoundDecoder.decode(bytes, name: name)
        client.lock()
        defer { client.unlock() }
        guard !closed else { throw MeasuringError(reason: "the player is closed") }
        var spec = pa_sample_spec(format: PAJAMA_PA_SAMPLE_FLOAT32NE, rate: UInt32(pcm.sampleRate), channels: UInt8(pcm.channels))
        guard let stream = pa_stream_new(client.context, name, &spec, nil) else { throw MeasuringError(reason: client.lastError) }
        pa_stream_set_state_callback(stream, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(client.mainloop))
        guard pa_stream_connect_playback(stream, nil, nil, pa_stream_flags_t(rawValue: 0), nil, nil) >= 0 else {
            pa_stream_unref(stream)
            throw MeasuringError(reason: client.lastError)
        }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING { client.wait() }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            pa_stream_unref(stream)
            throw MeasuringError(reason: "the server refused the stream")
        }
        pcm.samples.withUnsafeBytes { raw in
            _ = pa_stream_write(stream, raw.baseAddress, raw.count, nil, 0, PA_SEEK_RELATIVE)
        }
        playing.insert(stream)
        let drained = pa_stream_drain(stream, { stream, _, userdata in
            guard let userdata, let stream else { return }
            Unmanaged<StreamPerPlayPlayer>.fromOpaque(userdata).takeUnretainedValue().finished(stream)
        }, Unmanaged.passUnretained(self).toOpaque())
        if let drained { pa_operation_unref(drained) }
    }

    /// Closes every stream still playing and disconnects.
    func close() {
        guard isOpen.withLock({ isOpen -> Bool in
            defer { isOpen = false }
            return isOpen
        }) else { return }
        client.lock()
        closed = true
        for stream in playing { closeStream(stream) }
        playing = []
        client.unlock()
        client.close()
    }

    private func finished(_ stream: OpaquePointer) {
        guard playing.remove(stream) != nil else { return }
        closeStream(stream)
    }

    private func closeStream(_ stream: OpaquePointer) {
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }
}
