import CPulse
import Foundation

/// The server's own account of when a sound started: PulseAudio announces every new sink input (a sample
/// played from the cache, a new playback stream, a paplay process) to clients subscribed to sink inputs.
/// The bench dates each announcement on arrival (CLOCK_MONOTONIC, the clock of `SinkOnsetRecorder`), so a
/// sink input exists at the latest at that time and, since the server announces it when it creates it,
/// at the earliest a socket round trip before.
///
/// It checks the recorder's method (issue 14): a null sink's monitor renders ahead and rewinds, so an onset
/// dated from the record stream alone could be early or late. A sound cannot leave the sink before its sink
/// input exists, and the sink mixes a new input in its next render, so a recorder that dates onsets right
/// puts each one at or after its sink input's announcement, within about a sink latency.
final class SinkInputEvents: PulseWatch, @unchecked Sendable {
    // Safe: see PulseWatch; the subscription callback runs on the mainloop thread, which holds its lock.

    /// Connects to `server` and subscribes to sink-input events.
    init(server: String?) throws(MeasuringError) {
        super.init(client: try PulseClient(server: server, name: "Pajama bench sink-input events"))
        client.lock()
        defer { client.unlock() }
        pa_context_set_subscribe_callback(client.context, { _, type, _, userdata in
            guard let userdata else { return }
            Unmanaged<SinkInputEvents>.fromOpaque(userdata).takeUnretainedValue().received(type)
        }, Unmanaged.passUnretained(self).toOpaque())
        final class Reply {
            var done = false
            var success = false
            let mainloop: OpaquePointer
            init(_ mainloop: OpaquePointer) { self.mainloop = mainloop }
        }
        let reply = Reply(client.mainloop)
        guard let operation = pa_context_subscribe(client.context, PA_SUBSCRIPTION_MASK_SINK_INPUT, { _, success, userdata in
            guard let userdata else { return }
            let reply = Unmanaged<Reply>.fromOpaque(userdata).takeUnretainedValue()
            reply.success = success != 0
            reply.done = true
            pa_threaded_mainloop_signal(reply.mainloop, 0)
        }, Unmanaged.passUnretained(reply).toOpaque()) else {
            throw MeasuringError(reason: "cannot subscribe to sink-input events: \(client.lastError)")
        }
        while !reply.done, pa_operation_get_state(operation) == PA_OPERATION_RUNNING { client.wait() }
        pa_operation_unref(operation)
        guard reply.success else { throw MeasuringError(reason: "the server refused the sink-input subscription: \(client.lastError)") }
    }

    deinit { stop() }

    /// When the first new sink input after `arm()` was announced (CLOCK_MONOTONIC seconds), once it was.
    var announced: Double? { firstTime }

    override func detach() {
        pa_context_set_subscribe_callback(client.context, nil, nil)
    }

    /// The subscription callback, on the mainloop thread.
    private func received(_ type: pa_subscription_event_type_t) {
        let facility = type.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
        let kind = type.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
        guard facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue, kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue else { return }
        record(PulseClient.monotonicNow())
    }
}
