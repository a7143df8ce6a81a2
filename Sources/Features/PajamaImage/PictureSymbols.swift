/// The characters a picture may be drawn with: only those the terminal's font can show.
public enum PictureSymbols: String, Sendable, Hashable, CaseIterable {
    /// Spaces, Unicode block elements (▀ ▄ ▌ ▖ ...) and box drawing: terminal emulators with a modern font.
    case blocks
    /// The Linux console, whose fonts have room for few symbols: space, █, ░ and ▒ (with box drawing and
    /// ASCII, the only picture symbols every console-setup font, Lat15 and Uni2 alike, holds; they lack
    /// ▀ ▄ ▌ ▐ and the finer blocks).
    case linuxConsole
    /// Printable ASCII only (terminals without colour are often without block elements too).
    case ascii

    /// The symbols for the terminal named `term` showing pictures in `mode`.
    public init(term: String, mode: PictureColorMode) {
        if mode == .none {
            self = .ascii
        } else if term == "linux" || term.hasPrefix("linux-") {
            self = .linuxConsole
        } else {
            self = .blocks
        }
    }
}
