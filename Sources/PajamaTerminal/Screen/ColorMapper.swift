/// Turns theme colours into terminal colour numbers for the terminal's colour depth. Pure, tested.
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

    /// The colour number for a 0xRRGGBB value (pictures).
    public func number(rgb value: UInt32) -> Int {
        if colors >= 1 << 24 { return Int(value) }
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
        // Nearest of the 8 ANSI colours by thresholds.
        let bits = (r > 110 ? 1 : 0) | (g > 110 ? 2 : 0) | (b > 110 ? 4 : 0)
        return bits
    }

    static func parse(_ text: String) -> UInt32? {
        guard text.hasPrefix("#"), text.count == 7 else { return nil }
        return UInt32(text.dropFirst(), radix: 16)
    }
}
