import CChafa

/// Turns RGBA bitmaps into terminal cells with libchafa, following chafa's ncurses example: a symbol map
/// of what the terminal's font shows (`PictureSymbols`), a canvas in the colour mode the terminal allows,
/// then each cell's symbol and colours read back into plain Swift values.
///
/// Pure and thread-safe (every call builds and frees its own canvas), so it runs off the main actor.
public enum ChafaRenderer {
    /// Width over height of a terminal cell: cells are about twice as tall as wide.
    public static let fontRatio: Float = 0.5

    /// The size in cells of a `pixelWidth` x `pixelHeight` picture fitted into `width` x `height` cells,
    /// aspect kept (scaled up or down to fill the box in one direction). At least 1x1 for a non-empty box.
    public static func fittedSize(pixelWidth: Int, pixelHeight: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, pixelWidth > 0, pixelHeight > 0 else { return (0, 0) }
        var columns = Int32(clamping: width), rows = Int32(clamping: height)
        chafa_calc_canvas_geometry(Int32(clamping: pixelWidth), Int32(clamping: pixelHeight), &columns, &rows, fontRatio, 1, 0)
        return (min(width, max(1, Int(columns))), min(height, max(1, Int(rows))))
    }

    /// The cells of a bitmap (`rgba`: row-major, 4 bytes per pixel, unassociated alpha) fitted into
    /// `width` x `height` cells for `mode`, drawn with `symbols` (always ASCII without colour). Empty when
    /// the box or the bitmap is empty or inconsistent. `quick` matches colours in RGB instead of DIN99d
    /// (see `hasQuickDraft`): a draft to show while the final render runs.
    public static func render(pixelWidth: Int, pixelHeight: Int, rgba: [UInt8], width: Int, height: Int,
                              mode: PictureColorMode, symbols: PictureSymbols = .blocks, quick: Bool = false) -> PictureCells {
        guard pixelWidth > 0, pixelHeight > 0, rgba.count >= pixelWidth * pixelHeight * 4 else { return .empty }
        let size = fittedSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight, width: width, height: height)
        guard size.width > 0, size.height > 0, let canvas = makeCanvas(width: size.width, height: size.height, mode: mode,
                                                                                     symbols: mode == .none ? .ascii : symbols, quick: quick) else {
            return .empty
        }
        defer { chafa_canvas_unref(canvas) }
        rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress,
                                         Int32(pixelWidth), Int32(pixelHeight), Int32(pixelWidth * 4))
        }
        let rows = (0..<size.height).map { y in
            (0..<size.width).map { x in cell(of: canvas, x: Int32(x), y: Int32(y), mode: mode) }
        }
        return PictureCells(width: size.width, rows: rows)
    }

    /// Whether a `quick` render of `mode` is quicker than the final one: at 256 colours the final render
    /// matches colours in DIN99d, a perceptual colour space, which is most of chafa's work (the title
    /// picture at 200x60: about 25-40 ms, against about 6 ms in RGB; `pajama-bench picture`).
    public static func hasQuickDraft(_ mode: PictureColorMode) -> Bool { mode == .indexed256 }

    // MARK: Canvas

    private static func makeCanvas(width: Int, height: Int, mode: PictureColorMode, symbols set: PictureSymbols, quick: Bool) -> OpaquePointer? {
        guard let symbols = chafa_symbol_map_new() else { return nil }
        defer { chafa_symbol_map_unref(symbols) }
        switch set {
        case .ascii:
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SPACE)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_ASCII)
        case .blocks:
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SPACE)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BORDER)
        case .linuxConsole:
            // Space, █, ░ and ▒ (not ▓, which the Lat15 and Uni2 fonts lack).
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SPACE)
            chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_SOLID)
            chafa_symbol_map_add_by_range(symbols, 0x2591, 0x2592)
        }
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(width), Int32(height))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        chafa_canvas_config_set_symbol_map(config, symbols)
        switch mode {
        case .truecolor:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        case .indexed256:
            // Better colour fidelity in the 240-colour cube and ramp (chafa's advice).
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_240)
            chafa_canvas_config_set_color_space(config, quick ? CHAFA_COLOR_SPACE_RGB : CHAFA_COLOR_SPACE_DIN99D)
        case .indexed16:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_16)
        case .indexed8:
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_8)
        case .none:
            // Symbols only. Unlike chafa's example no dithering: at the few cells a page gives a picture,
            // dithered ASCII turns into noise, while plain shapes stay readable.
            chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_FGBG)
        }
        return chafa_canvas_new(config)
    }

    private static func cell(of canvas: OpaquePointer, x: Int32, y: Int32, mode: PictureColorMode) -> PictureCells.Cell {
        let code = chafa_canvas_get_char_at(canvas, x, y)
        let glyph: Glyph
        if code == 0 {
            glyph = .empty  // right half of a wide symbol
        } else if let scalar = Unicode.Scalar(code), scalar.value >= 0x20, !(0x7F...0x9F).contains(scalar.value) {
            glyph = Glyph(Character(scalar))
        } else {
            glyph = .space  // never send a control character to the terminal
        }
        var fg: Int32 = -1, bg: Int32 = -1
        switch mode {
        case .none:
            return PictureCells.Cell(glyph: glyph)
        case .truecolor:
            chafa_canvas_get_colors_at(canvas, x, y, &fg, &bg)
            return PictureCells.Cell(glyph: glyph, foreground: fg < 0 ? nil : .rgb(UInt32(fg)),
                                     background: bg < 0 ? nil : .rgb(UInt32(bg)))
        case .indexed256, .indexed16, .indexed8:
            chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg)
            return PictureCells.Cell(glyph: glyph, foreground: fg < 0 ? nil : .palette(Int(fg)),
                                     background: bg < 0 ? nil : .palette(Int(bg)))
        }
    }
}
