import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaImage

extension Theme {
    /// The least contrast (WCAG's ratio of relative luminances, 1 to 21) a story's text colour must have with
    /// the background it is drawn on; below it the theme's text colour is used (docs/twine.md, "Colours").
    static let minimumTextContrast = 2.0

    /// `color` (a story's text colour, 0xRRGGBB) when, as a terminal with `colors` colours shows it, it stays
    /// readable on `role`'s background; nil when it would be too close to that background (the
    /// theme's colour is used) or the terminal has no colours. The background is the role's, else the text's,
    /// else the terminal's (`terminalBackground`, as it said, else `assumedTerminalBackground`).
    /// A theme with no colours of its own (`mono`) draws none of a story's either.
    public func readableTextColor(_ color: UInt32, role: StyleRole, colors: Int, terminalBackground: UInt32? = nil) -> UInt32? {
        guard colors >= 8, hasColours else { return nil }
        let background = shownColor(of: role, background: true, colors: colors) ?? shownColor(of: .text, background: true, colors: colors)
            ?? terminalBackground ?? Self.assumedTerminalBackground
        // A partly transparent colour (`TextColor`) is what it looks like on that background.
        let alpha = TextColor.alpha(color)
        let color = alpha < 255 ? AlphaCompositing.over(color & 0xFF_FFFF, alpha: alpha, onto: background) : color & 0xFF_FFFF
        let mapper = ColorMapper(colors: colors)
        let shown = colors >= 1 << 24 ? color : ColorMapper.rgb(ofPaletteIndex: mapper.number(rgb: color))
        return AlphaCompositing.contrast(shown, background) >= Self.minimumTextContrast ? color : nil
    }

    /// True when some role has a colour of its own (not the terminal's default).
    var hasColours: Bool {
        roles.values.contains { style in
            [style.fg, style.bg, style.fg8, style.bg8].contains { $0 != nil && $0 != "default" }
        }
    }
}
