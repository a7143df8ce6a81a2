import CSndfile
import PajamaModel

/// Decodes sounds from bytes in memory with libsndfile (virtual I/O: the bytes may come from a folder,
/// the disk cache or HTTP): WAV, FLAC, Ogg Vorbis, Ogg Opus and MP3 as this libsndfile supports them.
public enum SoundDecoder {
    public static let defaultMaximumSeconds = 30.0
    public static let defaultMaximumBytes = 16 << 20

    /// Decodes `bytes`; `name` is for messages.
    public static func decode(
        _ bytes: [UInt8], name: String, maximumSeconds: Double = defaultMaximumSeconds, maximumBytes: Int = defaultMaximumBytes
    ) throws(AssetLoadError) -> PCMBuffer {
        guard bytes.count <= maximumBytes else {
            throw AssetLoadError(.tooLarge, subject: name, detail: "\(bytes.count) bytes (at most \(maximumBytes))")
        }
        guard !bytes.isEmpty else { throw AssetLoadError(.invalidFormat, subject: name, detail: "the file is empty") }
        let file = MemoryFile(bytes)
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in MemoryFile.from(user).length },
            seek: { offset, whence, user in MemoryFile.from(user).seek(offset, whence) },
            read: { pointer, count, user in MemoryFile.from(user).read(pointer, count) },
            write: { _, _, _ in 0 },
            tell: { user in MemoryFile.from(user).position })
        var info = SF_INFO()
        let unmanaged = Unmanaged.passRetained(file)
        defer { unmanaged.release() }
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, unmanaged.toOpaque()) else {
            let message = String(cString: sf_strerror(nil))
            throw AssetLoadError(.invalidFormat, subject: name, detail: message)
        }
        defer { sf_close(handle) }
        let rate = Int(info.samplerate), channels = Int(info.channels)
        guard rate >= 1000, rate <= 384_000, channels >= 1, channels <= 8 else {
            throw AssetLoadError(.invalidFormat, subject: name, detail: "\(channels) channels at \(rate) Hz is not a usable sound")
        }
        let limitFrames = Int(maximumSeconds * Double(rate))
        if info.frames > 0, Int(info.frames) > limitFrames, info.frames != Int64.max {
            throw AssetLoadError(.tooLarge, subject: name, detail: "longer than \(Int(maximumSeconds)) s")
        }
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 4096 * channels)
        var frames = 0
        while true {
            let got = chunk.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress, 4096) }
            if got <= 0 { break }
            frames += Int(got)
            if frames > limitFrames { throw AssetLoadError(.tooLarge, subject: name, detail: "longer than \(Int(maximumSeconds)) s") }
            samples.append(contentsOf: chunk[0..<(Int(got) * channels)])
        }
        guard frames > 0 else { throw AssetLoadError(.invalidFormat, subject: name, detail: "no audio frames") }
        return PCMBuffer(sampleRate: rate, channels: channels, frames: frames, samples: samples)
    }

    /// libsndfile's version string.
    public static var libraryVersion: String { String(cString: sf_version_string()) }
}

/// A read-only file over bytes, for libsndfile's virtual I/O callbacks.
private final class MemoryFile {
    let bytes: [UInt8]
    var offset: Int = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(pointer!).takeUnretainedValue()
    }

    var length: sf_count_t { sf_count_t(bytes.count) }
    var position: sf_count_t { sf_count_t(offset) }

    func seek(_ value: sf_count_t, _ whence: Int32) -> sf_count_t {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = offset
        case SEEK_END: base = bytes.count
        default: return -1
        }
        let target = base + Int(value)
        guard target >= 0, target <= bytes.count else { return -1 }
        offset = target
        return sf_count_t(offset)
    }

    func read(_ pointer: UnsafeMutableRawPointer?, _ count: sf_count_t) -> sf_count_t {
        guard let pointer, count > 0 else { return 0 }
        let n = min(Int(count), bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            pointer.copyMemory(from: source.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return sf_count_t(n)
    }
}
