import CPulse
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

extension PulseSoundEngine {
    /// Uploads PCM to the sample cache and waits for the server's confirmation. Lock held (the waits
    /// release it while the mainloop runs).
    func uploadLocked(_ pcm: PCMBuffer, name: String, subject: String, context ctx: OpaquePointer) -> Result<Void, AssetLoadError> {
        guard !connectionState.isStopped else { return .failure(AssetLoadError(.soundOff, subject: subject, detail: "sound stopped")) }
        // Named while in flight, so a `shutdown` meanwhile removes it too.
        memory.uploading.insert(name)
        defer { memory.uploading.remove(name) }
        var spec = pa_sample_spec(format: PAJAMA_PA_SAMPLE_FLOAT32NE, rate: UInt32(pcm.sampleRate), channels: UInt8(pcm.channels))
        guard let stream = pa_stream_new(ctx, name, &spec, nil) else {
            return .failure(AssetLoadError(.decoding, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        defer { pa_stream_unref(stream) }
        pa_stream_set_state_callback(stream, { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop))
        defer { pa_stream_set_state_callback(stream, nil, nil) }
        let length = pcm.byteCount
        guard pa_stream_connect_upload(stream, length) >= 0 else {
            return .failure(AssetLoadError(.network, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        memory.uploadsInFlight += 1
        defer { memory.uploadsInFlight -= 1 }
        while pa_stream_get_state(stream) == PA_STREAM_CREATING { pa_threaded_mainloop_wait(mainloop) }
        guard pa_stream_get_state(stream) == PA_STREAM_READY else {
            return .failure(AssetLoadError(.network, subject: subject, detail: "the server refused the upload"))
        }
        guard !connectionState.isStopped else {
            // `shutdown` ran while the server was answering: send nothing more (no sample is made).
            pa_stream_disconnect(stream)
            return .failure(AssetLoadError(.soundOff, subject: subject, detail: "sound stopped"))
        }
        let written = pcm.samples.withUnsafeBytes { raw in
            pa_stream_write(stream, raw.baseAddress, length, nil, 0, PA_SEEK_RELATIVE)
        }
        guard written >= 0, pa_stream_finish_upload(stream) >= 0 else {
            return .failure(AssetLoadError(.network, subject: subject, detail: String(cString: pa_strerror(pa_context_errno(ctx)))))
        }
        while pa_stream_get_state(stream) == PA_STREAM_READY { pa_threaded_mainloop_wait(mainloop) }
        guard pa_stream_get_state(stream) == PA_STREAM_TERMINATED else {
            return .failure(AssetLoadError(.network, subject: subject, detail: "the upload failed"))
        }
        if connectionState.isStopped {
            // Confirmed after `shutdown` began: its removal (of `uploading`) reaches the server after
            // this upload, so the sample is gone.
            return .failure(AssetLoadError(.soundOff, subject: subject, detail: "sound stopped"))
        }
        updateConnection { $0.uploaded.insert(name) }  // not while connecting: the probe is removed at once
        memory.onServer.insert(name)
        return .success(())
    }

    /// Whether the server has a usable sample cache: a 10 ms silent upload, confirmed, then removed.
    /// Lock held.
    func probeSampleCache(_ ctx: OpaquePointer) -> Bool {
        let probe = PCMBuffer(sampleRate: 48_000, channels: 1, frames: 480, samples: [Float](repeating: 0, count: 480))
        let name = "pajama.probe.\(getpid())"
        guard case .success = uploadLocked(probe, name: name, subject: "probe", context: ctx) else { return false }
        memory.onServer.remove(name)
        if let operation = pa_context_remove_sample(ctx, name, nil, nil) { pa_operation_unref(operation) }
        return true
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
        return "pajama." + String(safe.prefix(80)) + "." + String(FNV1a.hash(raw), radix: 16)
    }
}
