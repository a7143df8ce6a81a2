import PajamaCore
import PajamaImage

/// One picture format's decoder on its own (fuzz-jpeg, fuzz-webp, fuzz-gif): the bytes decoded as that
/// format whatever they start with, then the bitmap drawn like any page picture.
public enum PictureFormatFuzz {
    /// The picture the bytes decode to as `format`, drawn; nil when the decoder refused them.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8], as format: PictureFormat) -> StoryImage? {
        guard let image = try? ImageDecoder.decode(bytes, as: format, name: "assets/fuzz.\(format.rawValue.lowercased())") else { return nil }
        PictureFuzz.draw(image)
        return image
    }
}
