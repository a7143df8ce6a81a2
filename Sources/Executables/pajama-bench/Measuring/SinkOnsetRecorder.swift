import CPulse
import Foundation

/// Finds when sound comes out of a sink, for the bench: an in-process record stream on the sink's
/// monitor (float32 mono 48 kHz, 2 ms fragments, so the server hands over small chunks at once).
///
/// Method: each chunk is timestamped on arrival (CLOCK_MONOTONIC), and `pa_stream_get_latency` (with
/// timing interpolation) gives how long ago the chunk's first sample passed the sink, i.e. the record
/// latency; a monitor may report it negative (rendered, not yet played), which moves the time later.
/// The first sample above `threshold` at offset k in the chunk therefore left the sink at
/// `arrival - latency + k / 48000`. After `arm(notBefore:)`, the first such time is kept as `onset`.
final class SinkOnsetRecorder: PulseWatch, @unchecked Sendable {
    // Safe: see PulseWatch; `stream` is used with the mainloop lock held (the read callback runs on the
    // mainloop thread, which holds it); `threshold` is set in init.
    private var stream: OpaquePointer?
    private let threshold: Float
    static let rate = 48_000

    /// Starts recording `source` (say `pajama_test.monitor`) on `server`.
    init(server: String?, source: String, threshold: Float = 0.02) throws(MeasuringError) {
        self.threshold = threshold
        super.init(client: try PulseClient(server: server, name: "Pajama bench recorder"))
        client.lock()
        defer { client.unlock() }
        var spec = pa_sample_spec(format: PAJAMA_PA_SAMPLE_FLOAT32NE, rate: UInt32(Self.rate), channels: 1)
        guard let stream = pa_stream_new(client.context, "onset recorder", &spec, nil) else {
            throw MeasuringError(reason: "cannot create the record stream: \(client.lastError)")
        }
        self.stream = stream
        pa_stream_set_state_callback(stream, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(client.mainloop))
        pa_stream_set_read_callback(stream, { stream, _, userdata in
            guard let userdata else { return }
            Unmanaged<SinkOnsetRecorder>.fromOpaque(userdata).takeUnretainedValue().drain(stream)
        }, Unmanaged.passUnretained(self).toOpaque())
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: UInt32(pa_usec_to_bytes(2_000, &spec)))
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        guard pa_stream_connect_record(stream, source, &attributes, flags) >= 0 else {
            throw MeasuringError(reason: "cannot record \(source): \(client.lastError)")
        }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING { client.wait() }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            throw MeasuringError(reason: "cannot record \(source): \(client.lastError)")
        }
    }

    deinit { stop() }

    /// When the first sound after `arm()` left the sink (CLOCK_MONOTONIC seconds), once heard. A loud sample
    /// dated before `notBefore` is not it: it is the tail of an earlier sound.
    var onset: Double? { firstTime }

    /// Seconds on the clock the onsets use (CLOCK_MONOTONIC).
    static func now() -> Double { PulseClient.monotonicNow() }

    override func detach() {
        guard let stream else { return }
        self.stream = nil
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
    }

    /// The read callback: look at every chunk that arrived.
    private func drain(_ stream: OpaquePointer?) {
        while pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) >= 0, bytes > 0 else { return }
            let arrival = PulseClient.monotonicNow()
            if let data, isWatching {
                var latency: pa_usec_t = 0
                var negative: Int32 = 0
                if pa_stream_get_latency(stream, &latency, &negative) >= 0 {
                    let recordLatency = Double(latency) / 1e6 * (negative != 0 ? -1 : 1)
                    let samples = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: bytes / 4)
                    let chunkStart = arrival - recordLatency
                    let first = max(0, Int(((notBefore - chunkStart) * Double(Self.rate)).rounded(.up)))
                    if first < samples.count, let k = samples[first...].firstIndex(where: { abs($0) > threshold }) {
                        record(chunkStart + Double(k) / Double(Self.rate))
                    }
                }
            }
            pa_stream_drop(stream)
        }
    }
}
