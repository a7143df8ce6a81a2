import PajamaImage

/// Keeps a picture drawn in pixels in step with the cells ncurses draws (ncurses knows nothing of it): what
/// to do around each flushed frame so the picture shows at its box, and goes when the page changes, an
/// overlay covers it, the terminal is resized or the reader quits.
///
/// Pure: `Screen` asks it before each frame's flush (`plan`) and writes what it says. Sixel pixels are cells'
/// content to the terminal, so a sixel picture goes by sending its rows' cells again (`redraw`), and is sent
/// again whenever cells of its rows change (clearing to the end of a line would cut into it). A kitty
/// picture lies on its own layer: it goes by its id.
public struct PixelLayer: Sendable {
    /// What to do around one frame's flush.
    public struct Plan: Equatable, Sendable {
        /// Rows ncurses must send again in full with this frame (where a sixel picture was).
        public var redraw: Range<Int>?
        /// Bytes to write once the frame is flushed (a kitty delete, the picture at its cell).
        public var bytes: [UInt8]
    }

    private enum State: Sendable {
        case empty
        case shown(PixelPlacement)
    }

    private var state: State = .empty

    public init() {}

    /// The placement on the terminal now (nil: none).
    public var shown: PixelPlacement? {
        if case .shown(let placement) = state { return placement }
        return nil
    }

    /// The plan for a frame placing `next` (nil: no picture), whose flush clears the whole terminal when
    /// `repaint`, and changes the cells of `changedRows` (nil: none).
    public mutating func plan(next: PixelPlacement?, repaint: Bool, changedRows: ClosedRange<Int>?) -> Plan {
        var plan = Plan(redraw: nil, bytes: [])
        let previous = shown
        var send = next != nil && (next != previous || repaint)
        if let previous, previous != next || repaint {
            switch previous.picture.pixelProtocol {
            case .kitty: plan.bytes += PixelPicture.kittyDelete
            case .sixel: if !repaint { plan.redraw = previous.rows }
            }
        }
        if let next, next == previous, next.picture.pixelProtocol == .sixel, let changedRows, changedRows.overlaps(next.rows) {
            send = true
        }
        if send, let next { plan.bytes += Self.place(next) }
        state = next.map { .shown($0) } ?? .empty
        return plan
    }

    /// The bytes that take the picture away when the screen closes (a kitty picture outlives the alternate
    /// screen; sixel pixels go with it, or with the clearing of a terminal that has none).
    public mutating func close() -> [UInt8] {
        defer { state = .empty }
        if let shown, shown.picture.pixelProtocol == .kitty { return PixelPicture.kittyDelete }
        return []
    }

    /// The picture drawn at its cell, the cursor saved before and restored after (ncurses believes it
    /// where it left it).
    static func place(_ placement: PixelPlacement) -> [UInt8] {
        Array("\u{1B}7\u{1B}[\(placement.y + 1);\(placement.x + 1)H".utf8) + placement.picture.bytes + Array("\u{1B}8".utf8)
    }
}
