/// What a picture's transparent pixels are composited onto before it is turned into cells.
public struct PictureBackdrop: Sendable, Hashable {
    /// The page's background colour (0xRRGGBB): the theme's, as the terminal shows it.
    public var background: UInt32
    /// A colour that reads against the background (0xRRGGBB), e.g. the theme's text colour: transparent
    /// pictures whose ink would vanish into the background are laid on it instead. Nil: white or black,
    /// whichever stands out more from the ink.
    public var paper: UInt32?

    /// A backdrop of `background`, with `paper` for ink that would vanish into it.
    public init(background: UInt32, paper: UInt32? = nil) {
        self.background = background
        self.paper = paper
    }
}
