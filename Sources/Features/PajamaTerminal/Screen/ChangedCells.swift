/// The cells one frame's flush changes on the terminal: for each row, the first and the last column changed.
/// What tells whether a sixel picture drawn over blank cells may be taken away by the flush (`mayCover`).
public struct ChangedCells: Sendable, Equatable {
    /// Per row, the columns from the first to the last changed cell (nil: none changed).
    private var columns: [ClosedRange<Int>?]

    /// No cell changed on a terminal of `rows` rows.
    public init(rows: Int) {
        columns = Array(repeating: nil, count: max(0, rows))
    }

    /// Every cell of `rows` changed between `columns` (tests, and a frame described by hand).
    public init(rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        self.init(rows: rows.upperBound + 1)
        for y in rows { self.columns[y] = columns }
    }

    /// No change at all.
    public static let none = ChangedCells(rows: 0)

    /// No cell changed, on a terminal of `rows` rows now (the storage kept: a frame allocates nothing).
    public mutating func removeAll(rows: Int) {
        columns.removeAll(keepingCapacity: true)
        columns.append(contentsOf: repeatElement(nil, count: max(0, rows)))
    }

    public mutating func add(x: Int, y: Int) {
        guard columns.indices.contains(y) else { return }
        columns[y] = columns[y].map { min($0.lowerBound, x)...max($0.upperBound, x) } ?? x...x
    }

    public subscript(row: Int) -> ClosedRange<Int>? { columns.indices.contains(row) ? columns[row] : nil }

    /// How far right ncurses may move the cursor by writing again the cells it passes over (when that is shorter
    /// than a cursor sequence: a few cells; `relative_move` in lib_mvcur.c), with room to spare.
    static let rewriteReach = 8

    /// Whether sending these cells may write over sixel pixels drawn at `placement` (blank cells to ncurses).
    /// On a changed row ncurses writes, clears to the line's end and inserts or deletes characters from the
    /// first changed cell rightwards, so a change on the picture's rows left of its right edge may reach it.
    /// Changes right of it cannot, unless the cursor comes to them from just left of that edge: ncurses sends
    /// the rows top to bottom, and may move right by rewriting the cells in between, so the row changed before
    /// (above) must not end left of that edge within a short move of this row's first change.
    public func mayCover(_ placement: PixelPlacement) -> Bool {
        let right = placement.x + placement.picture.columns
        var before: ClosedRange<Int>?  // the columns of the last changed row above
        for y in 0..<min(columns.count, placement.rows.upperBound) {
            guard let changed = columns[y] else { continue }
            if placement.rows.contains(y) {
                if changed.lowerBound < right { return true }
                // The cursor leaves the row above somewhere in its changed columns (or just after): a move from
                // left of the edge to this row's first change short enough to be made by rewriting the cells.
                if let before, before.lowerBound < right, before.upperBound + 1 + Self.rewriteReach >= changed.lowerBound { return true }
            }
            before = changed
        }
        return false
    }
}
