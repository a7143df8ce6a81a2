import PajamaModel
import PajamaImage

/// One picture format's decoder on its own (fuzz-jpeg, fuzz-webp, fuzz-gif): the bytes decoded as that
/// format whatever they start with. The bitmap is checked, not drawn: drawing (chafa) is fuzz-picture's,
/// and drawing a 4096x4096 picture four times under AddressSanitizer took seconds an input, so the
/// decoders saw a few inputs a second instead of hundreds.
public enum PictureFormatFuzz {
    /// The picture the bytes decode to as `format`; nil when the decoder refused them.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8], as format: PictureFormat) -> StoryImage? {
        guard let image = try? ImageDecoder.decode(bytes, as: format, name: "assets/fuzz.\(format.rawValue.lowercased())") else { return nil }
        guard case .bitmap(let width, let height, let rgba) = image else { preconditionFailure("\(format) decoded to text art") }
        precondition(width >= 1 && height >= 1 && width <= PictureLimits.maximumSide && height <= PictureLimits.maximumSide,
                     "a \(width)x\(height) \(format) picture")
        precondition(rgba.count == width * height * 4, "a \(width)x\(height) bitmap of \(rgba.count) bytes")
        return image
    }
}
