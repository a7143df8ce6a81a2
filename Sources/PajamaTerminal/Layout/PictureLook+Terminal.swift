import PajamaImage

extension PictureLook {
    /// How pictures are drawn on the terminal named `term` with `colors` colours, under `theme`: the symbols
    /// its font shows, and transparent pixels laid on the theme's background.
    public init(term: String, colors: Int, theme: Theme) {
        let mode = PictureColorMode(terminalColors: colors)
        self.init(mode: mode, symbols: PictureSymbols(term: term, mode: mode), backdrop: theme.pictureBackdrop(colors: colors))
    }
}
