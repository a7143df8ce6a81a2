/// How many colours a picture may use, chosen from the terminal's colour count the way chafa's own
/// ncurses example does.
public enum PictureColorMode: String, Sendable, Hashable, CaseIterable {
    /// Any 24-bit colour (the terminal has direct colour).
    case truecolor
    /// The 240 colours of the 256-colour palette above the 16 themable ANSI colours (indices 16-255).
    case indexed256
    /// The 16 ANSI colours (indices 0-15).
    case indexed16
    /// The 8 basic ANSI colours (indices 0-7).
    case indexed8
    /// No colour: symbols only, drawn in the terminal's own foreground and background.
    case none

    /// The mode for a terminal with `colors` colours (ncurses' `COLORS`; 0 when it has none).
    public init(terminalColors colors: Int) {
        switch colors {
        case (1 << 24)...: self = .truecolor
        case 256...: self = .indexed256
        case 16...: self = .indexed16
        case 8...: self = .indexed8
        default: self = .none
        }
    }
}
