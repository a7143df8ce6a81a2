import CPNG
import PajamaModel

/// PNG through libpng's simplified API, to 8-bit sRGB RGBA: the same pixels for the same picture whatever its
/// bit depth and colour type. A 16-bit file without a gAMA, sRGB or iCCP chunk is taken as sRGB, as an 8-bit
/// one is and as browsers and image editors take it (libpng by itself takes it as linear light and draws it
/// washed out: a night sky's (12,27,60) as (63,92,132)); a file that says its gamma is converted from it.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        var image = png_image()
        image.version = PAJAMA_PNG_IMAGE_VERSION
        let begun = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        defer { png_image_free(&image) }
        guard begun != 0 else { throw AssetLoadError(.decoding, subject: name, detail: message(of: image)) }
        // Only after begin_read, which sets the flags.
        image.flags |= PAJAMA_PNG_IMAGE_FLAG_16BIT_sRGB
        let width = Int(image.width), height = Int(image.height)
        try PictureLimits.check(width: width, height: height, name: name, format: .png)
        image.format = PAJAMA_PNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = bytes.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
            }
        }
        guard finished != 0 else { throw AssetLoadError(.decoding, subject: name, detail: message(of: image)) }
        return .bitmap(width: width, height: height, rgba: pixels)
    }

    private static func message(of image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
