import PajamaImage

extension Theme {
    /// The colour numbers (foreground, background; -1: the terminal's default) a terminal with `colors`
    /// colours draws a cell of `style` in: a picture cell's own colours (chosen for this terminal's depth)
    /// win over the theme's, a nil colour (transparent pixel, text art) keeps the theme's; a story's text
    /// colour is used where it stays readable on the role's background (`readableTextColor`), else the
    /// theme's. What `Screen` gives ncurses, and what a test of a headless frame asks.
    public func colorNumbers(of style: Style, colors: Int, terminalBackground: UInt32? = nil) -> (fg: Int, bg: Int) {
        let mapper = ColorMapper(colors: colors)
        let role = self.style(style.role)
        let fg: Int
        if let color = style.textColor {
            fg = readableTextColor(color, role: style.role, colors: colors, terminalBackground: terminalBackground)
                .map { mapper.number(rgb: $0) } ?? mapper.number(rgb: role.fg, ansi: role.fg8)
        } else {
            fg = style.pictureForeground.map(mapper.number) ?? mapper.number(rgb: role.fg, ansi: role.fg8)
        }
        let bg = style.pictureBackground.map(mapper.number) ?? mapper.number(rgb: role.bg, ansi: role.bg8)
        return (fg, bg)
    }
}
