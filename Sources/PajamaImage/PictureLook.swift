/// How pictures are drawn on this terminal: the colours it has, the symbols its font shows, and what
/// transparent pixels sit on. Part of every rendered picture's cache key.
public struct PictureLook: Sendable, Hashable {
    /// The colours the picture may use.
    public var mode: PictureColorMode
    /// The characters it may be drawn with.
    public var symbols: PictureSymbols
    /// Nil leaves transparent pixels to chafa (cells without a colour, drawn in the theme's colours).
    public var backdrop: PictureBackdrop?

    /// A look for `mode`; without `symbols`, ASCII when the mode has no colour, else block elements.
    public init(mode: PictureColorMode, symbols: PictureSymbols? = nil, backdrop: PictureBackdrop? = nil) {
        self.mode = mode
        self.symbols = symbols ?? (mode == .none ? .ascii : .blocks)
        self.backdrop = backdrop
    }
}
