import CPulse

extension PulseSoundEngine {
    /// Asks the server about itself and its default sink (for `pajama doctor`); nil when not connected.
    public func serverReport() -> SoundServerReport? {
        lock()
        defer { unlock() }
        guard let connection = connectionState.connection else { return nil }
        let ctx = connection.context
        let query = ServerQuery(mainloop: mainloop)
        let box = Unmanaged.passRetained(query)
        defer { box.release() }
        let serverOperation = pa_context_get_server_info(ctx, { _, info, userdata in
            guard let userdata else { return }
            let query = Unmanaged<ServerQuery>.fromOpaque(userdata).takeUnretainedValue()
            if let info = info?.pointee {
                query.serverName = info.server_name.map { String(cString: $0) } ?? ""
                query.serverVersion = info.server_version.map { String(cString: $0) } ?? ""
                query.defaultSink = info.default_sink_name.map { String(cString: $0) } ?? ""
            }
            query.done()
        }, box.toOpaque())
        wait(serverOperation, query)
        if !query.defaultSink.isEmpty {
            query.pending = true
            let sinkOperation = pa_context_get_sink_info_by_name(ctx, query.defaultSink, { _, info, eol, userdata in
                guard let userdata else { return }
                let query = Unmanaged<ServerQuery>.fromOpaque(userdata).takeUnretainedValue()
                if eol == 0, let info = info?.pointee {
                    query.sinkDescription = info.description.map { String(cString: $0) } ?? ""
                    var spec = info.sample_spec
                    var text = [CChar](repeating: 0, count: Int(PA_SAMPLE_SPEC_SNPRINT_MAX))
                    query.sinkFormat = text.withUnsafeMutableBufferPointer { buffer in
                        String(cString: pa_sample_spec_snprint(buffer.baseAddress, buffer.count, &spec))
                    }
                    query.latency = info.latency
                    query.configuredLatency = info.configured_latency
                } else {
                    query.done()
                }
            }, box.toOpaque())
            wait(sinkOperation, query)
        }
        return SoundServerReport(
            address: memory.serverInfo, serverName: query.serverName, serverVersion: query.serverVersion,
            sampleCache: connection.sampleCacheAvailable, mode: connection.mode, defaultSink: query.defaultSink,
            sinkDescription: query.sinkDescription, sinkFormat: query.sinkFormat,
            sinkLatencyMicroseconds: query.latency, sinkConfiguredLatencyMicroseconds: query.configuredLatency)
    }

    /// Waits for a query's answer (lock held; the wait releases it while the mainloop runs).
    private func wait(_ operation: OpaquePointer?, _ query: ServerQuery) {
        guard let operation else { return }
        while query.pending && pa_operation_get_state(operation) == PA_OPERATION_RUNNING { pa_threaded_mainloop_wait(mainloop) }
        pa_operation_unref(operation)
    }
}

/// The answers of `serverReport`'s queries; written by libpulse callbacks on the mainloop thread while
/// the caller waits with the lock released, read after the wait with the lock held.
private final class ServerQuery {
    let mainloop: OpaquePointer
    var pending = true
    var serverName = "", serverVersion = "", defaultSink = ""
    var sinkDescription = "", sinkFormat = ""
    var latency: UInt64 = 0, configuredLatency: UInt64 = 0

    init(mainloop: OpaquePointer) { self.mainloop = mainloop }

    func done() {
        pending = false
        pa_threaded_mainloop_signal(mainloop, 0)
    }
}
