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
final class SinkOnsetRecorder: @unchecked Sendable {
    // Safe: `armed` and `found` are read and written only with the client's mainloop lock held (the
    // read callback runs on the mainloop thread, which holds it); the lets are set in init.
    private let client: PulseClient
    private var stream: OpaquePointer?
    private let threshold: Float
    private var armed = false
    private var notBefore = 0.0
    private var found: Double?
    /// Guards `isOpen`, which says whether the client may still be used (stop runs once).
    private let openLock = NSLock()
    private var isOpen = true
    static let rate = 48_000

    /// Starts recording `source` (say `pajama_test.monitor`) on `server`.
    init(server: String?, source: String, threshold: Float = 0.02) throws(MeasuringError) {
        self.threshold = threshold
        client = try PulseClient(server: server, name: "Pajama bench recorder")
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

    /// Forgets the last onset and watches for the next one that left the sink at `notBefore` or later
    /// (a sound heard before the trigger cannot be the trigger's: it is the tail of an earlier one).
    func arm(notBefore time: Double) {
        client.lock()
        found = nil
        notBefore = time
        armed = true
        client.unlock()
    }

    /// When the first sound after `arm()` left the sink (CLOCK_MONOTONIC seconds), once heard.
    var onset: Double? {
        guard openLock.withLock({ isOpen }) else { return nil }
        client.lock()
        defer { client.unlock() }
        return found
    }

    /// Seconds on the clock the onsets use (CLOCK_MONOTONIC).
    static func now() -> Double { PulseClient.monotonicNow() }

    /// Stops recording and disconnects.
    func stop() {
        guard openLock.withLock({ () -> Bool in
            defer { isOpen = false }
            return isOpen
        }) else { return }
        client.lock()
        guard let stream else {
            client.unlock()
            client.close()
            return
        }
        self.stream = nil
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_disconnect(stream)
        pa_stream_unref(stream)
        client.unlock()
        client.close()
    }

    /// The read callback: look at every chunk that arrived.
    private func drain(_ stream: OpaquePointer?) {
        while pa_stream_readable_size(stream) > 0 {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard pa_stream_peek(stream, &data, &bytes) >= 0, bytes > 0 else { return }
            let arrival = PulseClient.monotonicNow()
            if let data, armed, found == nil {
                var latency: pa_usec_t = 0
                var negative: Int32 = 0
                if pa_stream_get_latency(stream, &latency, &negative) >= 0 {
                    let recordLatency = Double(latency) / 1e6 * (negative != 0 ? -1 : 1)
                    let samples = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: bytes / 4)
                    let chunkStart = arrival - recordLatency
                    let first = max(0, Int(((notBefore - chunkStart) * Double(Self.rate)).rounded(.up)))
                    if first < samples.count, let k = samples[first...].firstIndex(where: { abs($0) > threshold }) {
                        found = chunkStart + Double(k) / Double(Self.rate)
                        armed = false
                    }
                }
            }
            pa_stream_drop(stream)
        }
    }
}
