import PajamaCore

/// Turns a picture into cells: text art as is (clipped), bitmaps as half blocks (each cell shows two
/// pixels, the upper as foreground of "▀" and the lower as background), scaled to fit, aspect kept.
public enum PictureRenderer {
    /// The cells of `image` fitted into `width` x `height` cells, row by row.
    public static func cells(for image: StoryImage, width: Int, height: Int) -> [[CellGrid.Cell]] {
        guard width > 0, height > 0 else { return [] }
        switch image {
        case .textArt(let lines):
            return lines.prefix(height).map { line in
                var row: [CellGrid.Cell] = []
                var used = 0
                for c in DisplayWidth.sanitize(line) {
                    let w = DisplayWidth.of(c)
                    if w == 0 { continue }
                    if used + w > width { break }
                    row.append(CellGrid.Cell(text: String(c), style: Style(.picture)))
                    if w == 2 { row.append(CellGrid.Cell(text: "", style: Style(.picture))) }
                    used += w
                }
                return row
            }
        case .bitmap(let pw, let ph, let rgba):
            guard pw > 0, ph > 0, rgba.count >= pw * ph * 4 else { return [] }
            // A cell is about twice as tall as wide; a half block holds 1x2 pixels, so pixels map 1:1 in shape.
            let scale = min(Double(width) / Double(pw), Double(height * 2) / Double(ph), 1)
            let cw = max(1, Int(Double(pw) * scale))
            let ch = max(1, Int(Double(ph) * scale / 2))
            func pixel(_ x: Int, _ y: Int) -> UInt32 {
                let sx = min(pw - 1, Int(Double(x) / scale))
                let sy = min(ph - 1, Int(Double(y) / scale))
                let i = (sy * pw + sx) * 4
                let a = UInt32(rgba[i + 3])
                // Blend onto black by alpha.
                let r = UInt32(rgba[i]) * a / 255, g = UInt32(rgba[i + 1]) * a / 255, b = UInt32(rgba[i + 2]) * a / 255
                return r << 16 | g << 8 | b
            }
            return (0..<ch).map { row in
                (0..<cw).map { column in
                    CellGrid.Cell(text: "▀", style: Style(pictureForeground: pixel(column, row * 2),
                                                          pictureBackground: pixel(column, row * 2 + 1)))
                }
            }
        }
    }
}
