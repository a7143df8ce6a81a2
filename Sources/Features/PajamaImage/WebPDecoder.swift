import CWebP
import PajamaModel

/// WebP through libwebp: lossy, lossless and with alpha, to RGBA (not premultiplied, like PNG's); an
/// animated WebP shows its first frame (libwebpdemux composes it on the canvas).
enum WebPDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        let result: Result<StoryImage, AssetLoadError> = bytes.withUnsafeBufferPointer { input in
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(input.baseAddress, input.count, &features)
            guard status == VP8_STATUS_OK else { return .failure(failure(status, name: name)) }
            let width = Int(features.width), height = Int(features.height)
            if let problem = PictureLimits.problem(width: width, height: height, name: name, format: .webp) { return .failure(problem) }
            if features.has_animation != 0 { return firstFrame(input, width: width, height: height, name: name) }
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                return .failure(AssetLoadError(.decoding, subject: name, detail: "libwebp is not the version Pajama was built with"))
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let decoded = pixels.withUnsafeMutableBufferPointer { out in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = out.baseAddress
                config.output.u.RGBA.stride = Int32(width * 4)
                config.output.u.RGBA.size = out.count
                defer { WebPFreeDecBuffer(&config.output) }
                return WebPDecode(input.baseAddress, input.count, &config)
            }
            guard decoded == VP8_STATUS_OK else { return .failure(failure(decoded, name: name)) }
            return .success(.bitmap(width: width, height: height, rgba: pixels))
        }
        return try result.get()
    }

    /// The first frame of an animation, composed on its canvas (`width` x `height`, already checked).
    private static func firstFrame(_ input: UnsafeBufferPointer<UInt8>, width: Int, height: Int, name: String) -> Result<StoryImage, AssetLoadError> {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            return .failure(AssetLoadError(.decoding, subject: name, detail: "libwebpdemux is not the version Pajama was built with"))
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: input.baseAddress, size: input.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            return .failure(AssetLoadError(.decoding, subject: name, detail: "a damaged or truncated animated WebP"))
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == width, Int(info.canvas_height) == height else {
            return .failure(AssetLoadError(.decoding, subject: name, detail: "an animated WebP whose canvas does not match its header"))
        }
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
            return .failure(AssetLoadError(.decoding, subject: name, detail: "the first frame of the animated WebP is damaged or truncated"))
        }
        let pixels = Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
        return .success(.bitmap(width: width, height: height, rgba: pixels))
    }

    /// libwebp's status as a reason.
    private static func failure(_ status: VP8StatusCode, name: String) -> AssetLoadError {
        let detail = switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends before the picture does (truncated)"
        case VP8_STATUS_BITSTREAM_ERROR: "the WebP data is damaged"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "a WebP feature libwebp does not support"
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        default: "libwebp refused the file (status \(status.rawValue))"
        }
        return AssetLoadError(.decoding, subject: name, detail: detail)
    }
}
