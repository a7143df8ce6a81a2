import PajamaImage

/// Turns theme and picture colours into terminal colour numbers for the terminal's colour depth. Pure, tested.
public struct ColorMapper: Sendable {
    /// Colours the terminal has: 0 (none), 8, 16, 256, or 2^24 (direct colour).
    public let colors: Int

    public init(colors: Int) { self.colors = colors }

    static let ansiNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// The colour number for a role's foreground or background; -1 is the terminal's default.
    public func number(rgb: String?, ansi: String?) -> Int {
        if colors < 256 || rgb == nil {
            guard colors >= 8, let ansi, let index = Self.ansiNames.firstIndex(of: ansi) else { return -1 }
            return index
        }
        guard let rgb, let value = Self.parse(rgb) else { return -1 }
        return number(rgb: value)
    }

    /// The colour number for a picture colour: a palette entry the terminal has is used as is (chafa chose
    /// it for this depth); anything else goes through its RGB value. -1 when the terminal has no colour.
    public func number(_ color: PictureColor) -> Int {
        switch color {
        case .rgb(let value):
            return number(rgb: value)
        case .palette(let index):
            guard colors >= 8, index >= 0, index < 256 else { return -1 }
            if index < colors { return colors >= 1 << 24 ? Int(Self.rgb(ofPaletteIndex: index)) : index }
            return number(rgb: Self.rgb(ofPaletteIndex: index))
        }
    }

    /// The colour number for a 0xRRGGBB value: itself on direct-colour terminals, the nearest of the
    /// 256-colour cube and grey ramp, or of the 16 / 8 ANSI colours; -1 without colour.
    public func number(rgb value: UInt32) -> Int {
        if colors >= 1 << 24 { return Int(value & 0xFFFFFF) }
        let r = Int(value >> 16 & 0xFF), g = Int(value >> 8 & 0xFF), b = Int(value & 0xFF)
        if colors >= 256 {
            func level(_ c: Int) -> Int { c < 48 ? 0 : c < 115 ? 1 : (c - 35) / 40 }
            let cube = 16 + 36 * level(r) + 6 * level(g) + level(b)
            let gray = (r + g + b) / 3
            if abs(r - gray) < 10 && abs(g - gray) < 10 && abs(b - gray) < 10 {
                return gray < 8 ? 16 : gray > 238 ? 231 : 232 + (gray - 8) / 10
            }
            return cube
        }
        guard colors >= 8 else { return -1 }
        let count = colors >= 16 ? 16 : 8
        return (0..<count).min { Self.distance(Self.rgb(ofPaletteIndex: $0), value) < Self.distance(Self.rgb(ofPaletteIndex: $1), value) } ?? 0
    }

    /// The usual (xterm) RGB value of a palette entry: 16 ANSI colours, the 6x6x6 cube, the grey ramp.
    public static func rgb(ofPaletteIndex index: Int) -> UInt32 {
        let ansi: [UInt32] = [
            0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
            0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
        ]
        switch index {
        case ..<0: return 0
        case 0..<16: return ansi[index]
        case 16..<232:
            let steps: [UInt32] = [0, 95, 135, 175, 215, 255]
            let i = index - 16
            return steps[i / 36] << 16 | steps[i / 6 % 6] << 8 | steps[i % 6]
        case 232..<256:
            let level = UInt32(8 + (index - 232) * 10)
            return level << 16 | level << 8 | level
        default: return 0xFFFFFF
        }
    }

    private static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        let dr = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
        let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
        let db = Int(a & 0xFF) - Int(b & 0xFF)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    static func parse(_ text: String) -> UInt32? {
        guard text.hasPrefix("#"), text.count == 7 else { return nil }
        return UInt32(text.dropFirst(), radix: 16)
    }
}
