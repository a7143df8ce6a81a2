import PajamaModel
import PajamaImage
@testable import PajamaTerminal

/// The red and blue test picture and its picture-cache keys, shared by the picture cache tests.
enum RedBluePicture {
    static let path = try! AssetPath(validating: "assets/images/red-blue.png")

    /// The cache key of the picture drawn at `width` x `height` cells.
    static func key(_ width: Int, _ height: Int, _ mode: PictureColorMode = .indexed256) -> PictureCache.Key {
        PictureCache.Key(path: path, width: width, height: height, mode: mode)
    }
}
