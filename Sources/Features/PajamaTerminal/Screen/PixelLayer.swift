import PajamaImage

/// Keeps a picture drawn in pixels in step with the cells ncurses draws (ncurses knows nothing of it): what
/// to do around each flushed frame so the picture shows at its box, and goes when the page changes, an
/// overlay covers it, the terminal is resized or the reader quits.
///
/// Pure: `Screen` asks it before each frame's flush (`plan`) and writes what it says. Sixel pixels are cells'
/// content to the terminal, so a sixel picture goes by sending its rows' cells again (`redraw`), and is sent
/// again when the cells a frame changes may write over it (`ChangedCells.mayCover`: changes left of its right
/// edge on its rows; text beside it, right of it, changes without it). A kitty
/// picture lies on its own layer, stored in the terminal under its own image id: it is sent once, placed by
/// id each time it shows, and goes by deleting its placement, the terminal keeping its data. The terminal
/// keeps the last `kittyImagesKept` pictures shown; older ones are freed, and all of them when the screen closes.
public struct PixelLayer: Sendable {
    /// What to do around one frame's flush.
    public struct Plan: Equatable, Sendable {
        /// Rows ncurses must send again in full with this frame (where a sixel picture was).
        public var redraw: Range<Int>?
        /// Bytes to write once the frame is flushed (a kitty delete, the picture at its cell).
        public var bytes: [UInt8]
        /// Whether the bytes send a picture's data (a sixel picture, a kitty transmission), not only place it.
        public var sendsData = false
    }

    /// How many kitty pictures the terminal keeps for the reader (the page before and after, and a resize's).
    public static let kittyImagesKept = 8

    private enum State: Sendable {
        case empty
        case shown(PixelPlacement)
    }

    private var state: State = .empty
    /// The kitty images the terminal holds, the one shown last at the end.
    private var kittyImages: [UInt32] = []

    public init() {}

    /// The placement on the terminal now (nil: none).
    public var shown: PixelPlacement? {
        if case .shown(let placement) = state { return placement }
        return nil
    }

    /// The plan for a frame placing `next` (nil: no picture), whose flush clears the whole terminal when
    /// `repaint`, and changes `changes`.
    public mutating func plan(next: PixelPlacement?, repaint: Bool, changes: ChangedCells) -> Plan {
        var plan = Plan(redraw: nil, bytes: [])
        let previous = shown
        var send = next != nil && (next != previous || repaint)
        if let previous, previous != next || repaint {
            switch previous.picture.pixelProtocol {
            case .kitty: plan.bytes += KittyGraphics.deletePlacements(id: previous.picture.kittyImageID)
            case .sixel: if !repaint { plan.redraw = previous.rows }
            }
        }
        if let next, next == previous, next.picture.pixelProtocol == .sixel, changes.mayCover(next) {
            send = true
        }
        if send, let next { place(next, resend: repaint, into: &plan) }
        state = next.map { .shown($0) } ?? .empty
        return plan
    }

    /// The bytes that take the picture away when the screen closes and free every kitty picture the terminal
    /// holds (sixel pixels go with the alternate screen, or with the clearing of a terminal that has none).
    public mutating func close() -> [UInt8] {
        defer {
            state = .empty
            kittyImages = []
        }
        return kittyImages.flatMap(KittyGraphics.free)
    }

    /// The picture drawn at its cell, the cursor saved before and restored after (ncurses believes it where it
    /// left it). A kitty picture's data is sent first unless the terminal holds it (`resend`: a cleared terminal
    /// may have dropped it); the oldest kept is freed when there are too many.
    private mutating func place(_ placement: PixelPlacement, resend: Bool, into plan: inout Plan) {
        let picture = placement.picture
        let cursor = Array("\u{1B}7\u{1B}[\(placement.y + 1);\(placement.x + 1)H".utf8)
        switch picture.pixelProtocol {
        case .sixel:
            plan.bytes += cursor + picture.bytes + Array("\u{1B}8".utf8)
            plan.sendsData = true
        case .kitty:
            let id = picture.kittyImageID
            let held = kittyImages.firstIndex(of: id)
            if let held { kittyImages.remove(at: held) }
            kittyImages.append(id)
            if held == nil || resend {
                plan.bytes += picture.bytes
                plan.sendsData = true
            }
            while kittyImages.count > Self.kittyImagesKept { plan.bytes += KittyGraphics.free(id: kittyImages.removeFirst()) }
            plan.bytes += cursor + KittyGraphics.place(id: id, columns: picture.columns, rows: picture.rows) + Array("\u{1B}8".utf8)
        }
    }
}
