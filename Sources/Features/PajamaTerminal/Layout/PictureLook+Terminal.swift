import PajamaImage

extension PictureLook {
    /// How pictures are drawn on the terminal named `term` with `colors` colours, under `theme`: the symbols
    /// its font shows, transparent pixels laid on the theme's background, and `pixels` when it shows them.
    public init(term: String, colors: Int, theme: Theme, pixels: PixelFormat? = nil, terminalBackground: UInt32? = nil) {
        let mode = PictureColorMode(terminalColors: colors)
        // In pixels, transparency is laid on the theme's background even on a terminal of few colours.
        let backdrop = theme.pictureBackdrop(colors: colors, terminalBackground: terminalBackground)
            ?? (pixels == nil ? nil : theme.pictureBackdrop(colors: 256, terminalBackground: terminalBackground))
        self.init(mode: mode, symbols: PictureSymbols(term: term, mode: mode), backdrop: backdrop, pixels: pixels)
    }
}
