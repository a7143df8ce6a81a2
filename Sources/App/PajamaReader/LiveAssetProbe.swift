import PajamaAudio
import PajamaModel
import PajamaImage

/// Asset checks with the real decoders: libsndfile for sounds, libpng and the text-art reader for pictures.
public struct LiveAssetProbe: AssetProbe {
    public init() {}

    public func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? {
        do {
            _ = try SoundDecoder.decode(bytes, name: path.value)
            return nil
        } catch {
            return "not a playable sound: \(error.detail.isEmpty ? error.kind.rawValue : error.detail)"
        }
    }

    public func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? {
        do {
            _ = try ImageDecoder.decode(path: path, bytes: bytes)
            return nil
        } catch {
            return "not a usable picture: \(error.detail.isEmpty ? error.kind.rawValue : error.detail)"
        }
    }
}
