/// A decoded picture: RGBA pixels from a PNG, or lines of plain-text art from a `.txt` file.
public enum StoryImage: Hashable, Sendable {
    /// Pixels, row-major, 4 bytes (R, G, B, A) per pixel.
    case bitmap(width: Int, height: Int, rgba: [UInt8])
    /// Text art, drawn as is (clipped to the space available).
    case textArt(lines: [String])

    /// Bytes held in memory, for cache budgets.
    public var byteCount: Int {
        switch self {
        case .bitmap(_, _, let rgba): rgba.count
        case .textArt(let lines): lines.reduce(0) { $0 + $1.utf8.count + 16 }
        }
    }
}
