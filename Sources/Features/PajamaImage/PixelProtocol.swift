/// A way of showing a picture in real pixels rather than symbol cells.
public enum PixelProtocol: String, Sendable, Hashable, CaseIterable {
    /// DEC sixel graphics (xterm -ti vt340, mlterm, foot, WezTerm, Konsole, Windows Terminal).
    case sixel
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty).
    case kitty
}

/// How a terminal shows pictures in pixels: the protocol and the size of one of its cells in pixels (what
/// fits a picture to a box of cells). Part of `PictureLook`, so part of every rendered picture's cache key.
public struct PixelFormat: Sendable, Hashable {
    public var pixelProtocol: PixelProtocol
    /// One cell's width in pixels.
    public var cellWidth: Int
    /// One cell's height in pixels.
    public var cellHeight: Int
    /// The largest picture the terminal draws, in pixels (sixel: XTSMGRAPHICS), or nil when it did not say.
    public var maximumWidth: Int?
    public var maximumHeight: Int?

    public init(_ pixelProtocol: PixelProtocol, cellWidth: Int, cellHeight: Int, maximumWidth: Int? = nil, maximumHeight: Int? = nil) {
        self.pixelProtocol = pixelProtocol
        self.maximumWidth = maximumWidth.map { max(1, $0) }
        self.maximumHeight = maximumHeight.map { max(1, $0) }
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
    }
}
