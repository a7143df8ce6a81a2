import PajamaModel
import PajamaImage

/// Turns a picture into cells for a box: bitmaps through libchafa (`ChafaRenderer`), text art drawn as
/// is, sanitised and clipped. This is the picture work; it runs inside `PictureCache`, never while a
/// frame is composed.
public enum PictureRenderer {
    /// The cells of `image` fitted into `width` x `height` cells for `mode` (bitmaps keep their aspect).
    public static func cells(for image: StoryImage, width: Int, height: Int, mode: PictureColorMode) -> PictureCells {
        cells(for: image, width: width, height: height, look: PictureLook(mode: mode))
    }

    /// The cells of `image` fitted into `width` x `height` cells as `look` says: its colour mode and
    /// symbols, and transparent pixels composited onto its backdrop. `quick`: a draft of a bitmap, faster
    /// where `hasQuickDraft` says so (`ChafaRenderer`), the same cells elsewhere.
    public static func cells(for image: StoryImage, width: Int, height: Int, look: PictureLook, quick: Bool = false) -> PictureCells {
        guard width > 0, height > 0 else { return .empty }
        switch image {
        case .textArt(let lines):
            return textArt(lines, width: width, height: height)
        case .bitmap(let pixelWidth, let pixelHeight, let rgba):
            if let format = look.pixels {
                // In pixels (sixel, kitty): blank cells the picture is drawn over; symbols if chafa gives nothing.
                if let picture = PixelEncoder.encode(pixelWidth: pixelWidth, pixelHeight: pixelHeight, rgba: rgba, width: width,
                                                     height: height, format: format, backdrop: look.backdrop) {
                    return PictureCells(pixels: picture)
                }
            }
            let opaque = look.backdrop.flatMap { AlphaCompositing.composite(rgba: rgba, onto: $0) } ?? rgba
            return ChafaRenderer.render(pixelWidth: pixelWidth, pixelHeight: pixelHeight, rgba: opaque,
                                        width: width, height: height, mode: look.mode, symbols: look.symbols, quick: quick)
        }
    }

    /// Whether a quick draft of a bitmap in `look` is quicker than its final render.
    public static func hasQuickDraft(_ look: PictureLook) -> Bool { look.pixels == nil && ChafaRenderer.hasQuickDraft(look.mode) }

    /// Text art: each line sanitised (no control character reaches the terminal), clipped by display
    /// width, wide characters followed by an empty continuation cell as in `CellGrid`.
    static func textArt(_ lines: [String], width: Int, height: Int) -> PictureCells {
        var used = 0
        let rows = lines.prefix(height).map { line in
            var row: [PictureCells.Cell] = []
            for character in DisplayWidth.sanitize(line) {
                let w = DisplayWidth.of(character)
                if w == 0 { continue }
                if row.count + w > width { break }
                row.append(PictureCells.Cell(glyph: Glyph(character)))
                if w == 2 { row.append(PictureCells.Cell(glyph: .empty)) }
            }
            used = max(used, row.count)
            return row
        }
        return PictureCells(width: used, rows: rows)
    }
}
