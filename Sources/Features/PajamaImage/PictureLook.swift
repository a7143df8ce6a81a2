/// How pictures are drawn on this terminal: the colours it has, the symbols its font shows, and what
/// transparent pixels sit on. Part of every rendered picture's cache key.
public struct PictureLook: Sendable, Hashable {
    /// The colours the picture may use.
    public var mode: PictureColorMode
    /// The characters it may be drawn with.
    public var symbols: PictureSymbols
    /// Nil leaves transparent pixels to chafa (cells without a colour, drawn in the theme's colours).
    public var backdrop: PictureBackdrop?
    /// Nil: pictures are drawn in symbol cells. Else bitmaps are sent in pixels in this protocol (text art
    /// stays in cells), sized with its cell size.
    public var pixels: PixelFormat?

    /// A look for `mode`; without `symbols`, ASCII when the mode has no colour, else block elements.
    public init(mode: PictureColorMode, symbols: PictureSymbols? = nil, backdrop: PictureBackdrop? = nil, pixels: PixelFormat? = nil) {
        self.mode = mode
        self.pixels = pixels
        self.symbols = symbols ?? (mode == .none ? .ascii : .blocks)
        self.backdrop = backdrop
    }
}
