import CJPEG
import PajamaModel

/// JPEG through libjpeg-turbo (the CJPEG shim owns libjpeg's setjmp error handling): baseline and
/// progressive, greyscale, YCbCr, CMYK and YCCK (Adobe's inverted CMYK too), turned upright by the EXIF
/// orientation. A truncated or corrupt file is an error, never a picture with grey parts.
enum JPEGDecoder {
    /// Most scans a progressive JPEG may have: each is a pass over the whole picture, and a hostile file
    /// of thousands of tiny scans costs minutes. Real files have about ten (cjpeg writes at most 100).
    static let maximumScans = 500

    static func decode(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        var message = [CChar](repeating: 0, count: Int(PAJAMA_JPEG_MESSAGE_LENGTH))
        let result: Result<StoryImage, AssetLoadError> = bytes.withUnsafeBufferPointer { input in
            message.withUnsafeMutableBufferPointer { text in
                guard let jpeg = pajama_jpeg_open(input.baseAddress, input.count, Int32(maximumScans), text.baseAddress) else {
                    return .failure(AssetLoadError(.decoding, subject: name, detail: String(cString: text.baseAddress!)))
                }
                defer { pajama_jpeg_close(jpeg) }
                let width = Int(pajama_jpeg_width(jpeg)), height = Int(pajama_jpeg_height(jpeg))
                if let problem = PictureLimits.problem(width: width, height: height, name: name, format: .jpeg) { return .failure(problem) }
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                let read = pixels.withUnsafeMutableBufferPointer { out in pajama_jpeg_read_rgba(jpeg, out.baseAddress, text.baseAddress) }
                guard read != 0 else {
                    return .failure(AssetLoadError(.decoding, subject: name, detail: String(cString: text.baseAddress!)))
                }
                let upright = ExifOrientation(jpeg: input).apply(width: width, height: height, rgba: pixels)
                return .success(.bitmap(width: upright.width, height: upright.height, rgba: upright.rgba))
            }
        }
        return try result.get()
    }
}
