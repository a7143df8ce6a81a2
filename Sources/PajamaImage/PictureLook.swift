/// How pictures are drawn on this terminal: the colours it has, the symbols its font shows, and what
/// transparent pixels sit on. Part of every rendered picture's cache key.
public struct PictureLook: Sendable, Hashable {
    public var mode: PictureColorMode
    public var symbols: PictureSymbols
    /// Nil leaves transparent pixels to chafa (cells without a colour, drawn in the theme's colours).
    public var backdrop: PictureBackdrop?

    public init(mode: PictureColorMode, symbols: PictureSymbols? = nil, backdrop: PictureBackdrop? = nil) {
        self.mode = mode
        self.symbols = symbols ?? (mode == .none ? .ascii : .blocks)
        self.backdrop = backdrop
    }
}
