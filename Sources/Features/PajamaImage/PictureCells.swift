/// A picture turned into terminal cells for one box size and colour mode: what the page layout copies
/// onto the screen, with no picture work left to do.
public struct PictureCells: Sendable, Hashable {
    /// One cell: a single-width symbol (or "" for the right half of a wide character) and its colours.
    /// A nil colour is the theme's picture colour (transparent pixels, text art, no-colour mode).
    public struct Cell: Sendable, Hashable {
        public var glyph: Glyph
        public var foreground: PictureColor?
        public var background: PictureColor?

        public init(glyph: Glyph, foreground: PictureColor? = nil, background: PictureColor? = nil) {
            self.glyph = glyph
            self.foreground = foreground
            self.background = background
        }

        public init(text: String, foreground: PictureColor? = nil, background: PictureColor? = nil) {
            self.init(glyph: Glyph(text), foreground: foreground, background: background)
        }

        /// The symbol as text ("" for the right half of a wide character).
        public var text: String { glyph.text }
    }

    /// Columns and rows used (at most the box asked for).
    public let width: Int
    public let height: Int
    /// Row-major, `width * height` cells.
    public let cells: [Cell]
    /// The picture in pixels, drawn over these cells (blanks) once they are on the screen; nil for a
    /// picture drawn in the cells themselves.
    public let pixels: PixelPicture?

    /// Cells from rows, each padded with blanks (or cut) to `width`.
    public init(width: Int, rows: [[Cell]]) {
        pixels = nil
        self.width = max(0, width)
        height = rows.count
        var flat: [Cell] = []
        flat.reserveCapacity(self.width * rows.count)
        for row in rows {
            flat += row.prefix(self.width)
            if row.count < self.width { flat += Array(repeating: Cell(glyph: .space), count: self.width - row.count) }
        }
        cells = flat
    }

    /// Blank cells covered by `pixels`, which draws the picture.
    public init(pixels: PixelPicture) {
        self.pixels = pixels
        width = pixels.columns
        height = pixels.rows
        cells = Array(repeating: Cell(glyph: .space), count: pixels.columns * pixels.rows)
    }

    /// The cell at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Cell { cells[y * width + x] }

    /// No cells.
    public static let empty = PictureCells(width: 0, rows: [])
}
