import PajamaImage

/// A screen's worth of cells, drawn by the renderers in pure Swift and flushed by `Screen`.
public struct CellGrid: Sendable, Equatable {
    /// One terminal cell: one grapheme (the empty glyph for the right half of a wide one) and its style.
    public struct Cell: Sendable, Hashable {
        public var glyph: Glyph
        public var style: Style

        public init(glyph: Glyph = .space, style: Style = Style(.text)) {
            self.glyph = glyph
            self.style = style
        }

        public init(text: String, style: Style = Style(.text)) {
            self.init(glyph: Glyph(text), style: style)
        }

        /// The grapheme as text ("" for the right half of a wide character).
        public var text: String { glyph.text }
    }

    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major, `width * height` cells of 24 bytes each (a `Glyph` and a `Style`: plain integers, no
    /// padding, so rows compare as memory; see `forEachChange`).
    public private(set) var cells: [Cell]
    /// The picture drawn in pixels over the frame's cells, if any (blank cells under it).
    public var pixels: PixelPlacement?
    /// Where the terminal's cursor is parked once the frame is drawn: on the focus (the start of the selected
    /// choice, of the last line revealed...), which screen readers and braille displays follow (docs/reader.md,
    /// "The cursor"); nil: wherever the last cell drawn left it.
    public var cursor: CellPosition?

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// Blanks every cell and takes the size `width` x `height`, in the storage the grid already has when
    /// nothing else shares it and the size is the same: a reader keeping two grids (the frame on screen and
    /// the next one) composes every frame without allocating one.
    public mutating func clear(width: Int, height: Int) {
        let width = max(0, width), height = max(0, height)
        pixels = nil
        cursor = nil
        if width == self.width, height == self.height {
            cells.withUnsafeMutableBufferPointer { $0.update(repeating: Cell()) }
        } else {
            self.width = width
            self.height = height
            cells = Array(repeating: Cell(), count: width * height)
        }
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Draws `text` (sanitised here, so nothing from a story reaches the terminal raw) at (x, y),
    /// clipped to `maxWidth` cells and to the grid. Returns the cells used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = Style(.text), maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(maxWidth ?? width, width - max(x, 0))
        return putPrintableASCII(text, x: x, y: y, style: style, limit: limit)
            ?? putCharacters(text, x: x, y: y, style: style, limit: limit)
    }

    /// `put` for any text, a character at a time.
    mutating func putCharacters(_ text: String, x: Int, y: Int, style: Style, limit: Int) -> Int {
        var column = x
        var used = 0
        for character in DisplayWidth.sanitize(text) {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if used + w > limit { break }
            if column >= 0 {
                self[column, y] = Cell(glyph: Glyph(character), style: style)
                if w == 2, column + 1 < width { self[column + 1, y] = Cell(glyph: .empty, style: style) }
            }
            column += w
            used += w
        }
        return used
    }

    /// `put` for text of printable ASCII only (nothing to sanitise, one cell a byte): a glyph per byte, no
    /// `Character` per cell. Nil for any other text.
    private mutating func putPrintableASCII(_ text: String, x: Int, y: Int, style: Style, limit: Int) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let used = max(0, min(bytes.count, limit))
            for (offset, byte) in bytes.prefix(used).enumerated() where x + offset >= 0 {
                self[x + offset, y] = Cell(glyph: Glyph(Unicode.Scalar(byte)), style: style)
            }
            return used
        }
    }

    /// Fills a row range with blanks of a style (for bars and highlights).
    public mutating func fill(y: Int, from x: Int = 0, to end: Int? = nil, style: Style) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(end ?? width, width) { self[column, y] = Cell(glyph: .space, style: style) }
    }

    /// The grid as plain text lines (trailing spaces trimmed), for tests.
    public func text() -> String {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += self[x, y].text }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

/// A cell of the screen: its column and row.
public struct CellPosition: Sendable, Hashable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
