import Foundation
import PajamaTerminal

/// A theme file, read as the reader reads one from a themes folder (`ThemeLibrary.load`), then every role's
/// colours mapped for every colour depth and the picture backdrop worked out, as drawing does.
public enum ThemeFuzz {
    /// The theme, when the file is one.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8]) -> Theme? {
        let file = ScratchFolder.write(bytes, as: "fuzz.json", for: "theme")
        guard let theme = ThemeLibrary.load("fuzz", paths: [file.deletingLastPathComponent()]) else { return nil }
        for colors in [0, 8, 16, 256, 1 << 24] {
            let mapper = ColorMapper(colors: colors)
            for role in StyleRole.allCases {
                let style = theme.style(role)
                for number in [mapper.number(rgb: style.fg, ansi: style.fg8), mapper.number(rgb: style.bg, ansi: style.bg8)] {
                    precondition(number >= -1 && number < max(colors, 256), "role \(role) maps to colour \(number) on a \(colors)-colour terminal")
                }
            }
            _ = theme.pictureBackdrop(colors: colors)
        }
        return theme
    }
}
