#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CellGrid {
    /// Calls `body` with each cell of the top-left `columns` x `rows` of this grid that differs from the same
    /// cell of `before`, row by row, left to right (every cell when `before` is nil or of another size).
    /// A row the same as before is skipped with one memory comparison: a new frame after a key press
    /// mostly repeats the last one (the picture, the bars), so most of its rows cost a `memcmp`.
    public func forEachChange(since before: CellGrid?, columns: Int, rows: Int, _ body: (_ x: Int, _ y: Int, _ cell: Cell) -> Void) {
        let columns = max(0, min(columns, width)), rows = max(0, min(rows, height))
        guard columns > 0, rows > 0 else { return }
        let before = before.flatMap { $0.width == width && $0.height == height ? $0 : nil }
        cells.withUnsafeBufferPointer { new in
            guard let before else {
                for y in 0..<rows { for x in 0..<columns { body(x, y, new[y * width + x]) } }
                return
            }
            before.cells.withUnsafeBufferPointer { old in
                for y in 0..<rows {
                    let start = y * width
                    if memcmp(new.baseAddress! + start, old.baseAddress! + start, columns * MemoryLayout<Cell>.stride) == 0 { continue }
                    for x in 0..<columns where new[start + x] != old[start + x] { body(x, y, new[start + x]) }
                }
            }
        }
    }
}
