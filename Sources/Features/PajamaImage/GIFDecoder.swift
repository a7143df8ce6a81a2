import CGIF
import PajamaModel

/// GIF through giflib: the first frame (an animation shows its first picture), placed on the logical
/// screen, with its transparent colour see-through. Records are read one at a time and reading stops after
/// the first frame: the frames after it are never decoded.
enum GIFDecoder {
    static func decode(_ bytes: [UInt8], name: String) throws(AssetLoadError) -> StoryImage {
        let result: Result<StoryImage, AssetLoadError> = bytes.withUnsafeBytes { raw in
            let input = MemoryInput(raw)
            return withExtendedLifetime(input) {
                var openError: Int32 = 0
                guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), readFromMemory, &openError) else {
                    return .failure(AssetLoadError(.decoding, subject: name, detail: reason(openError)))
                }
                defer {
                    var closeError: Int32 = 0
                    DGifCloseFile(gif, &closeError)
                }
                return firstFrame(gif, name: name)
            }
        }
        return try result.get()
    }

    /// The bytes giflib reads, through `readFromMemory`.
    private final class MemoryInput {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static let readFromMemory: InputFunc = { gif, buffer, wanted in
        guard let gif, let buffer, let user = gif.pointee.UserData, wanted > 0 else { return 0 }
        let input = Unmanaged<MemoryInput>.fromOpaque(user).takeUnretainedValue()
        let count = min(Int(wanted), input.bytes.count - input.offset)
        guard count > 0 else { return 0 }
        UnsafeMutableRawPointer(buffer).copyMemory(from: input.bytes.baseAddress! + input.offset, byteCount: count)
        input.offset += count
        return Int32(count)
    }

    private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>, name: String) -> Result<StoryImage, AssetLoadError> {
        func failed() -> Result<StoryImage, AssetLoadError> { .failure(AssetLoadError(.decoding, subject: name, detail: reason(gif.pointee.Error))) }
        let screenWidth = Int(gif.pointee.SWidth), screenHeight = Int(gif.pointee.SHeight)
        // A screen of 0x0 (some writers leave it so) takes the frame's size, checked with the frame.
        if let problem = PictureLimits.problem(width: max(screenWidth, 1), height: max(screenHeight, 1), name: name, format: .gif) {
            return .failure(problem)
        }
        var transparent = Int(NO_TRANSPARENT_COLOR)
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return failed() }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return failed() }
                if code == GRAPHICS_EXT_FUNC_CODE, let block {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK { transparent = Int(control.TransparentColor) }
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return failed() }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { return failed() }
                return frame(gif, transparent: transparent, screenWidth: screenWidth, screenHeight: screenHeight, name: name)
            case TERMINATE_RECORD_TYPE:
                return .failure(AssetLoadError(.decoding, subject: name, detail: "the GIF holds no picture"))
            default:
                return .failure(AssetLoadError(.decoding, subject: name, detail: "the GIF data is damaged"))
            }
        }
    }

    /// The frame just described, decoded onto a transparent canvas the size of the logical screen (grown to
    /// hold a frame that reaches past it, as browsers do).
    private static func frame(
        _ gif: UnsafeMutablePointer<GifFileType>, transparent: Int, screenWidth: Int, screenHeight: Int, name: String
    ) -> Result<StoryImage, AssetLoadError> {
        let desc = gif.pointee.Image
        let left = Int(desc.Left), top = Int(desc.Top), frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
        let width = max(screenWidth, left + frameWidth), height = max(screenHeight, top + frameHeight)
        if let problem = PictureLimits.problem(width: frameWidth, height: frameHeight, name: name, format: .gif)
            ?? PictureLimits.problem(width: width, height: height, name: name, format: .gif) {
            return .failure(problem)
        }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            return .failure(AssetLoadError(.decoding, subject: name, detail: "the GIF has no colour table"))
        }
        let colorCount = Int(map.pointee.ColorCount)
        var line = [GifPixelType](repeating: 0, count: frameWidth)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // An interlaced frame's rows come in four passes: every 8th from 0, every 8th from 4, every 4th from
        // 2, every 2nd from 1.
        let passes = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for (start, step) in passes {
            for row in stride(from: start, to: frameHeight, by: step) {
                let read = line.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(frameWidth)) }
                guard read == GIF_OK else {
                    return .failure(AssetLoadError(.decoding, subject: name, detail: reason(gif.pointee.Error)))
                }
                let base = ((top + row) * width + left) * 4
                for x in 0..<frameWidth {
                    let index = Int(line[x])
                    guard index != transparent, index < colorCount else { continue }
                    let color = colors[index]
                    pixels[base + x * 4] = color.Red
                    pixels[base + x * 4 + 1] = color.Green
                    pixels[base + x * 4 + 2] = color.Blue
                    pixels[base + x * 4 + 3] = 255
                }
            }
        }
        return .success(.bitmap(width: width, height: height, rgba: pixels))
    }

    /// giflib's error as a reason.
    private static func reason(_ code: Int32) -> String {
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON: return "the file ends before the picture does (truncated)"
        case D_GIF_ERR_NOT_GIF_FILE: return "not a GIF file"
        default:
            if let text = GifErrorString(code) { return String(cString: text) }
            return "giflib error \(code)"
        }
    }
}
