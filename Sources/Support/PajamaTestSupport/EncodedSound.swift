import Foundation

/// A test tone encoded with the command-line tools (sox, opusenc, lame), for decoder tests.
public struct EncodedSound: Sendable {
    /// The formats libsndfile is asked to decode.
    public enum Format: String, Sendable, CaseIterable, CustomStringConvertible {
        case wav, flac, vorbis, opus, mp3
        public var description: String { rawValue }
        var fileExtension: String {
            switch self {
            case .vorbis: return "ogg"
            default: return rawValue
            }
        }
    }

    public let folder: TemporaryDirectory
    public let name: String
    public let bytes: [UInt8]

    /// A sine tone at 660 Hz, amplitude 0.5, `seconds` long, at `rate` and `channels`.
    public static func make(_ format: Format, seconds: Double, rate: Int, channels: Int) throws -> EncodedSound {
        let folder = try TemporaryDirectory(prefix: "pajama-sound")
        let wav = folder.path + "/source.wav"
        try tool("sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", wav, "synth", "\(seconds)", "sine", "660", "vol", "0.5"])
        let name = "tone." + format.fileExtension
        let out = folder.path + "/" + name
        switch format {
        case .wav, .flac, .vorbis: try tool("sox", [wav, out])
        case .opus: try tool("opusenc", ["--quiet", wav, out])
        case .mp3: try tool("lame", ["--quiet", "-b", "128", wav, out])
        }
        guard let data = FileManager.default.contents(atPath: out) else { throw ChildProcess.Failure(message: "no \(out)") }
        return EncodedSound(folder: folder, name: name, bytes: Array(data))
    }

    private static func tool(_ name: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(name, arguments, timeout: 30)
        guard result.status == 0 else { throw ChildProcess.Failure(message: "\(name) \(arguments.joined(separator: " ")): \(result.stderr)") }
    }
}
