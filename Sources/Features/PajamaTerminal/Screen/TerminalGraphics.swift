import PajamaImage

/// How this terminal shows pictures: in pixels (sixel or kitty, with its cell size) or in symbol cells, and
/// why (what `pajama doctor` prints). Decided once at start from what the terminal answered (`GraphicsProbe`).
public struct TerminalGraphics: Sendable, Equatable {
    /// What `--pictures` asks for.
    public enum Choice: String, Sendable, CaseIterable {
        /// Pixels when the terminal says it can, else cells.
        case auto
        case cells, sixel, kitty
    }

    /// Nil: symbol cells.
    public var pixels: PixelFormat?
    /// Why this mode, in a line ("kitty graphics (the terminal answered the kitty query; cells 10x20 pixels)").
    public var reason: String
    /// The replies that came, when the terminal was asked and its last reply has not come yet: what comes
    /// later must not be read as keys, and may still say pixels (`LateReplies`, `afterLateReplies`).
    public var pendingReplies: GraphicsReplies?
    /// Whether the terminal was asked and its last reply has not come yet.
    public var repliesPending: Bool { pendingReplies != nil }
    /// What `--pictures` asked for.
    public var choice: Choice = .auto
    /// The cell size in pixels the kernel knows (`TIOCGWINSZ`), when the terminal fills in its pixel fields.
    public var kernelCellSize: GraphicsReplies.Size?
    /// The terminal's background colour (0xRRGGBB), when it said (OSC 11).
    public var background: UInt32?

    public init(pixels: PixelFormat?, reason: String) {
        self.pixels = pixels
        self.reason = reason
    }

    /// Symbol cells, for `reason`.
    public static func cells(_ reason: String) -> TerminalGraphics { TerminalGraphics(pixels: nil, reason: reason) }

    /// The mode's name: "cells", "sixel" or "kitty".
    public var name: String { pixels?.pixelProtocol.rawValue ?? "cells" }

    /// The multiplexer `environment` runs in ("tmux", "screen"), if any: it draws the panes itself and passes
    /// no graphics through unless configured to, so pictures are cells there.
    public static func multiplexer(in environment: [String: String]) -> String? {
        if environment["TMUX"].map({ !$0.isEmpty }) == true { return "tmux" }
        if environment["STY"].map({ !$0.isEmpty }) == true { return "screen" }
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("tmux") { return "tmux" }
        if term.hasPrefix("screen") { return "screen" }
        return nil
    }

    /// How pictures are drawn once every reply has come (`replies`: those of the wait and the late ones), when
    /// that is pixels where this is cells: a terminal slow to answer (a slow link, a terminal still starting)
    /// gets its pictures in pixels from then on. Nil when nothing changes: already pixels, `--pictures cells`,
    /// or the replies say cells too.
    public func afterLateReplies(_ replies: GraphicsReplies) -> TerminalGraphics? {
        guard pixels == nil, repliesPending, choice != .cells, replies.isComplete else { return nil }
        var late = Self.decide(choice, replies: replies, kernelCellSize: kernelCellSize, multiplexer: nil)
        guard late.pixels != nil else { return nil }
        late.reason += "; its replies came after the 100 ms wait"
        late.choice = choice
        late.kernelCellSize = kernelCellSize
        late.background = replies.background ?? background
        return late
    }

    /// The mode for `choice` given the terminal's `replies` (nil: it was not asked) and the cell size the
    /// kernel knows (`TIOCGWINSZ`, nil when it has no pixel sizes).
    public static func decide(_ choice: Choice, replies: GraphicsReplies?, kernelCellSize: GraphicsReplies.Size?, multiplexer: String?) -> TerminalGraphics {
        let cell = replies?.cellSize ?? kernelCellSize
        let cellText = cell.map { "cells \($0.width)x\($0.height) pixels" }
        func format(_ kind: PixelProtocol, _ cell: GraphicsReplies.Size) -> PixelFormat {
            let maximum = kind == .sixel ? replies?.sixelGeometry : nil
            return PixelFormat(kind, cellWidth: cell.width, cellHeight: cell.height, maximumWidth: maximum?.width, maximumHeight: maximum?.height)
        }
        switch choice {
        case .cells:
            return .cells("cells (--pictures cells)")
        case .sixel, .kitty:
            let kind: PixelProtocol = choice == .sixel ? .sixel : .kitty
            guard let cell else {
                return .cells("cells: --pictures \(kind.rawValue) asked, but the terminal did not tell its cell size in pixels")
            }
            return TerminalGraphics(pixels: format(kind, cell), reason: "\(kind.rawValue) (--pictures \(kind.rawValue); \(cellText ?? ""))")
        case .auto:
            if let multiplexer {
                return .cells("cells: inside \(multiplexer), which passes no sixel or kitty graphics through (--pictures sixel or kitty overrides)")
            }
            guard let replies, replies.isComplete else {
                return .cells(replies == nil ? "cells: the terminal was not asked" : "cells: the terminal did not answer within 100 ms")
            }
            let kind: PixelProtocol
            if replies.kitty == true {
                kind = .kitty
            } else if replies.sixel {
                kind = .sixel
            } else {
                return .cells("cells: the terminal speaks neither sixel nor the kitty graphics protocol")
            }
            let said = kind == .kitty ? "the terminal answered the kitty graphics query" : "the terminal's device attributes include sixel"
            guard let cell else { return .cells("cells: \(said), but did not tell its cell size in pixels") }
            let geometry = kind == .sixel ? replies.sixelGeometry.map { "; at most \($0.width)x\($0.height) pixels" } ?? "" : ""
            return TerminalGraphics(pixels: format(kind, cell), reason: "\(kind.rawValue) (\(said); \(cellText ?? "")\(geometry))")
        }
    }
}
