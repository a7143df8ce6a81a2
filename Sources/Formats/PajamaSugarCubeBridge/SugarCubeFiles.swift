import PajamaModel
import PajamaSugarCube
import PajamaTwine

/// Which Twine files are SugarCube's, and the pictures and sounds they name.
enum SugarCubeFiles {
    static let maximumFileSize = 16 * 1024 * 1024

    static func assets(in bytes: [UInt8]) -> [AssetPath] {
        guard let story = try? TwineFileKind.parse(String(decoding: bytes, as: UTF8.self)) else { return [] }
        let scan = SugarCubeScan.scan(story, custom: [])
        return Array(Set(scan.flatMap { $0.images + $0.sounds }.compactMap { try? AssetPath(validating: $0) })).sorted()
    }
}
