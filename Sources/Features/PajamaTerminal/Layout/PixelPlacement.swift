import PajamaImage

/// A picture in pixels placed on a frame: where its top-left cell is. The frame's cells under it are blanks;
/// `Screen` draws the pixels over them once ncurses has sent the cells (see `PixelLayer`).
public struct PixelPlacement: Sendable, Hashable {
    public var picture: PixelPicture
    /// The top-left cell (column, row).
    public var x: Int
    public var y: Int

    public init(picture: PixelPicture, x: Int, y: Int) {
        self.picture = picture
        self.x = x
        self.y = y
    }

    /// The rows it covers.
    public var rows: Range<Int> { y..<(y + picture.rows) }
}
