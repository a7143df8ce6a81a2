import PajamaImage

extension Theme {
    /// The background assumed where the theme leaves it to the terminal ("default"): most terminals are dark.
    static let assumedTerminalBackground: UInt32 = 0x000000

    /// What transparent picture pixels are laid on at `colors` colours: the picture role's background (else
    /// the text's) as the terminal shows it, with the picture (else text) colour as the paper for ink that
    /// would vanish into it. Nil without colours (pictures are drawn in plain characters then). Where the theme
    /// leaves the background to the terminal: `terminalBackground` when the terminal said it (OSC 11), else
    /// `assumedTerminalBackground`.
    public func pictureBackdrop(colors: Int, terminalBackground: UInt32? = nil) -> PictureBackdrop? {
        guard colors >= 8 else { return nil }
        let background = shownColor(of: .picture, background: true, colors: colors)
            ?? shownColor(of: .text, background: true, colors: colors) ?? terminalBackground ?? Self.assumedTerminalBackground
        let paper = shownColor(of: .picture, background: false, colors: colors) ?? shownColor(of: .text, background: false, colors: colors)
        return PictureBackdrop(background: background, paper: paper)
    }

    /// A role's colour (0xRRGGBB) as a terminal with `colors` colours shows it, the way `Screen` picks it:
    /// "#rrggbb" from 256 colours on, else the ANSI name. Nil for the terminal's default.
    func shownColor(of role: StyleRole, background: Bool, colors: Int) -> UInt32? {
        let style = self.style(role)
        let rgb = background ? style.bg : style.fg, ansi = background ? style.bg8 : style.fg8
        if colors < 256 || rgb == nil {
            guard let ansi, let index = ColorMapper.ansiNames.firstIndex(of: ansi) else { return nil }
            return ColorMapper.rgb(ofPaletteIndex: index)
        }
        return rgb.flatMap(ColorMapper.parse)
    }
}
