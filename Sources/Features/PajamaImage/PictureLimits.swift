import PajamaModel

/// The size limits every picture format shares, checked from the file's header before any pixel is
/// decoded or allocated: a small file that claims a huge picture (a decompression bomb) is refused.
public enum PictureLimits {
    /// Largest picture accepted, in pixels per side.
    public static let maximumSide = 4096
    /// Largest picture accepted, in pixels (64 MB of RGBA).
    public static let maximumPixels = 4096 * 4096

    /// Throws `problem`'s error unless `width` x `height` is within limits.
    static func check(width: Int, height: Int, name: String, format: PictureFormat) throws(AssetLoadError) {
        if let problem = problem(width: width, height: height, name: name, format: format) { throw problem }
    }

    /// `.tooLarge` (or `.decoding` for an empty picture) unless `width` x `height` is within limits.
    static func problem(width: Int, height: Int, name: String, format: PictureFormat) -> AssetLoadError? {
        guard width > 0, height > 0 else {
            return AssetLoadError(.decoding, subject: name, detail: "the \(format.rawValue) header says \(width)x\(height) pixels")
        }
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixels else {
            return AssetLoadError(.tooLarge, subject: name, detail: "\(width)x\(height) pixels (at most \(maximumSide) per side)")
        }
        return nil
    }
}
