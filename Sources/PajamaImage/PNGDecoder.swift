import CPNG
import PajamaCore

/// PNG through libpng's simplified API, to RGBA.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        var image = png_image()
        image.version = PAJAMA_PNG_IMAGE_VERSION
        let begun = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        defer { png_image_free(&image) }
        guard begun != 0 else { throw AssetLoadError(.decoding, subject: name, detail: message(of: image)) }
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
