import CPulse
import Foundation

/// A plain libpulse connection on its own threaded mainloop, for the measuring tools (the bench's
/// recorder and its decode-per-play baseline). Callers hold `lock()` around every libpulse call.
final class PulseClient {
    let mainloop: OpaquePointer
    let context: OpaquePointer

    /// Connects to `server` and waits until the context is ready.
    init(server: String?, name: String) throws(MeasuringError) {
        mainloop = pa_threaded_mainloop_new()
        pa_threaded_mainloop_start(mainloop)
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), name)
        pa_context_set_state_callback(context, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw MeasuringError(reason: "cannot connect: " + String(cString: pa_strerror(pa_context_errno(context))))
        }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { return }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                throw MeasuringError(reason: "cannot connect: " + String(cString: pa_strerror(pa_context_errno(context))))
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    func wait() { pa_threaded_mainloop_wait(mainloop) }
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// The context's last error, as text.
    var lastError: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Disconnects and frees everything.
    func close() {
        lock()
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        unlock()
        pa_threaded_mainloop_stop(mainloop)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
    }

    /// Seconds on the monotonic clock (CLOCK_MONOTONIC), the clock the measurements share.
    static func monotonicNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A measuring tool that could not start (no server, a refused stream).
struct MeasuringError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
