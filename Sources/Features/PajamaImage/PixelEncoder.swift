import CChafa
import FoundationEssentials
import Glibc
import PajamaBasics

/// Encodes a bitmap as sixel or kitty graphics with libchafa (`chafa_canvas_print`), sized to a box of cells
/// in pixels: aspect kept, centred, transparent pixels and the margins laid on the backdrop's background.
///
/// Pure and thread-safe (every call builds and frees its own canvas), so it runs off the main actor, inside
/// `PictureCache` like the cell rendering.
public enum PixelEncoder {
    /// The cells (at most `width` x `height`) a `pixelWidth` x `pixelHeight` picture covers once scaled to fit
    /// the box in pixels with its aspect kept, and its size in pixels then.
    public static func fittedSize(pixelWidth: Int, pixelHeight: Int, width: Int, height: Int, format: PixelFormat)
        -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)
    {
        guard width > 0, height > 0, pixelWidth > 0, pixelHeight > 0 else { return (0, 0, 0, 0) }
        let boxWidth = Double(min(width * format.cellWidth, format.maximumWidth ?? .max))
        let boxHeight = Double(min(height * format.cellHeight, format.maximumHeight ?? .max))
        let scale = min(boxWidth / Double(pixelWidth), boxHeight / Double(pixelHeight))
        let fittedWidth = max(1, min(Int(boxWidth), Int((Double(pixelWidth) * scale).rounded())))
        let fittedHeight = max(1, min(Int(boxHeight), Int((Double(pixelHeight) * scale).rounded())))
        let columns = min(width, (fittedWidth + format.cellWidth - 1) / format.cellWidth)
        let rows = min(height, (fittedHeight + format.cellHeight - 1) / format.cellHeight)
        return (columns, rows, fittedWidth, fittedHeight)
    }

    /// `rgba` (row-major, 4 bytes a pixel, unassociated alpha) encoded for `format` to fit `width` x `height`
    /// cells, on `backdrop` (nil: black). Nil when the box or the bitmap is empty or inconsistent, or chafa
    /// gives nothing.
    public static func encode(pixelWidth: Int, pixelHeight: Int, rgba: [UInt8], width: Int, height: Int,
                              format: PixelFormat, backdrop: PictureBackdrop?) -> PixelPicture? {
        guard pixelWidth > 0, pixelHeight > 0, rgba.count >= pixelWidth * pixelHeight * 4 else { return nil }
        let fitted = fittedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight, width: width, height: height, format: format)
        guard fitted.columns > 0, fitted.rows > 0 else { return nil }
        let canvasWidth = fitted.columns * format.cellWidth, canvasHeight = fitted.rows * format.cellHeight
        let backdrop = backdrop ?? PictureBackdrop(background: 0)
        let opaque = AlphaCompositing.composite(rgba: Array(rgba.prefix(pixelWidth * pixelHeight * 4)), onto: backdrop)
            ?? Array(rgba.prefix(pixelWidth * pixelHeight * 4))
        let padded = pad(opaque, width: pixelWidth, height: pixelHeight, toAspect: (canvasWidth, canvasHeight), fill: backdrop.background)
        guard let canvas = makeCanvas(columns: fitted.columns, rows: fitted.rows, format: format) else { return nil }
        defer { chafa_canvas_unref(canvas) }
        padded.pixels.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                                         Int32(padded.width), Int32(padded.height), Int32(padded.width * 4))
        }
        guard let info = makeTermInfo() else { return nil }
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return nil }
        defer { g_string_free(printed, 1) }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(printed.pointee.str).assumingMemoryBound(to: UInt8.self),
                                              count: Int(printed.pointee.len)))
        guard !bytes.isEmpty else { return nil }
        switch format.pixelProtocol {
        case .sixel:
            return PixelPicture(pixelProtocol: .sixel, columns: fitted.columns, rows: fitted.rows,
                                pixelWidth: canvasWidth, pixelHeight: canvasHeight, bytes: bytes)
        case .kitty:
            guard let rgba = scaledPixels(bytes, count: canvasWidth * canvasHeight * 4) else { return nil }
            let id = KittyGraphics.newImageID()
            return PixelPicture(pixelProtocol: .kitty, columns: fitted.columns, rows: fitted.rows, pixelWidth: canvasWidth, pixelHeight: canvasHeight,
                                bytes: KittyGraphics.transmit(id: id, rgba: rgba, width: canvasWidth, height: canvasHeight), kittyImageID: id)
        }
    }

    /// The pixels chafa scaled to the canvas, from its kitty printing (`makeTermInfo`: each base64 chunk on a
    /// line of its own, padded on its own), when they are the `count` bytes expected. The lines are found with
    /// memchr and decoded by Foundation: megabytes, not to be walked byte by byte in Swift.
    static func scaledPixels(_ printed: [UInt8], count: Int) -> [UInt8]? {
        var pixels = Data(capacity: count)
        let decoded = printed.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            var start = 0
            while start < raw.count {
                let end = memchr(base + start, 0x0A, raw.count - start).map { UnsafeRawPointer($0) - base } ?? raw.count
                if end > start {
                    guard let chunk = Data(base64Encoded: Data(bytes: base + start, count: end - start)) else { return false }
                    pixels.append(chunk)
                }
                start = end + 1
            }
            return true
        }
        guard decoded, pixels.count == count else { return nil }
        return [UInt8](pixels)
    }

    /// The picture centred on `fill` in a bitmap of the aspect `aspect` (width, height): chafa stretches what
    /// it draws over the whole canvas, so the margins are added before and the picture keeps its shape.
    static func pad(_ rgba: [UInt8], width: Int, height: Int, toAspect aspect: (Int, Int), fill: UInt32) -> (pixels: [UInt8], width: Int, height: Int) {
        var paddedWidth = width, paddedHeight = height
        if width * aspect.1 > height * aspect.0 {
            paddedHeight = max(height, Int((Double(width) * Double(aspect.1) / Double(aspect.0)).rounded()))
        } else {
            paddedWidth = max(width, Int((Double(height) * Double(aspect.0) / Double(aspect.1)).rounded()))
        }
        if paddedWidth == width, paddedHeight == height { return (rgba, width, height) }
        let pixel: [UInt8] = [UInt8(fill >> 16 & 0xFF), UInt8(fill >> 8 & 0xFF), UInt8(fill & 0xFF), 255]
        var out = [UInt8](repeating: 0, count: paddedWidth * paddedHeight * 4)
        for index in stride(from: 0, to: out.count, by: 4) {
            out[index] = pixel[0]
            out[index + 1] = pixel[1]
            out[index + 2] = pixel[2]
            out[index + 3] = 255
        }
        let left = (paddedWidth - width) / 2, top = (paddedHeight - height) / 2
        for row in 0..<height {
            let from = row * width * 4, to = ((top + row) * paddedWidth + left) * 4
            out.replaceSubrange(to..<(to + width * 4), with: rgba[from..<(from + width * 4)])
        }
        return (out, paddedWidth, paddedHeight)
    }

    private static func makeCanvas(columns: Int, rows: Int, format: PixelFormat) -> OpaquePointer? {
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(format.cellWidth), Int32(format.cellHeight))
        chafa_canvas_config_set_pixel_mode(config, format.pixelProtocol == .sixel ? CHAFA_PIXEL_MODE_SIXELS : CHAFA_PIXEL_MODE_KITTY)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        return chafa_canvas_new(config)
    }

    /// The sequences chafa prints with: a sixel image in a DCS whose pixels left unset stay as they are; for
    /// kitty, only the base64 chunks of the scaled RGBA pixels, a line each (`scaledPixels` reads them back:
    /// the reader sends them itself, compressed, under the picture's own id; see `KittyGraphics`).
    private static func makeTermInfo() -> OpaquePointer? {
        guard let info = chafa_term_info_new() else { return nil }
        let sequences: [(ChafaTermSeq, String)] = [
            (CHAFA_TERM_SEQ_BEGIN_SIXELS, "\u{1B}P%1;%2;%3q"),
            (CHAFA_TERM_SEQ_END_SIXELS, "\u{1B}\\"),
            (CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1, ""),
            (CHAFA_TERM_SEQ_BEGIN_KITTY_IMAGE_CHUNK, ""),
            (CHAFA_TERM_SEQ_END_KITTY_IMAGE_CHUNK, "\n"),
            (CHAFA_TERM_SEQ_END_KITTY_IMAGE, ""),
        ]
        for (sequence, text) in sequences {
            var error: UnsafeMutablePointer<GError>?
            chafa_term_info_set_seq(info, sequence, text, &error)
            if let error {
                g_error_free(error)
                chafa_term_info_unref(info)
                return nil
            }
        }
        return info
    }
}
