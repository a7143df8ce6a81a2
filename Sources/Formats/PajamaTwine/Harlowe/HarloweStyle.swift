import FoundationEssentials
import Glibc
import PajamaBasics

/// Harlowe's colours and alignments, as the HTML Pajama's markup reader draws (docs/twine.md, "Colours and
/// alignment"): `(text-colour:)` is a `<span style="color: ...">`, `(align:)` and the aligner markup a
/// `<div style="text-align: ...">` around the text.
enum HarloweStyle {
    /// Harlowe's built-in colour values (its manual, "Colour data"): not CSS's.
    static let colours: [String: String] = [
        "red": "#e61919", "orange": "#e68019", "yellow": "#e5e619", "lime": "#80e619", "green": "#19e619", "aqua": "#19e5e6",
        "cyan": "#19e5e6", "blue": "#197fe6", "navy": "#1919e6", "purple": "#7f19e6", "magenta": "#e619e5",
        "fuchsia": "#e619e5", "white": "#ffffff", "black": "#000000", "grey": "#888888", "gray": "#888888",
        "transparent": "transparent",
    ]

    /// The tag that colours its text `colour` (a Harlowe colour, a `#hex`, or a CSS colour name in a string);
    /// nil for `transparent` or something that is no colour (the text is shown in the theme's colour).
    static func colourTag(_ colour: String) -> String? {
        let value = colour.trimmingSpaces
        guard !value.isEmpty, value.lowercased() != "transparent",
            value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "#" || $0 == "(" || $0 == ")" || $0 == "," || $0 == " " || $0 == "." })
        else { return nil }
        return "span style=\"color: \(value)\""
    }

    /// The tag that aligns its lines as `alignment` says (`left`, `center`, `right`).
    static func alignTag(_ alignment: String) -> String { "div style=\"text-align: \(alignment)\"" }

    /// The alignment an aligner (`==>`, `=><=`, `<==>`, `<==`, `===><=`) or `(align:)`'s string names: `left`,
    /// `center` or `right`; justified text is left, and a mixed one (`===><=`) the nearest of the three by
    /// its ratio of `=`s. Nil when `marker` is not an aligner.
    static func alignment(_ marker: String) -> String? {
        let text = marker.filter { $0 != " " && $0 != "\t" }
        guard !text.isEmpty, text.allSatisfy({ $0 == "=" || $0 == "<" || $0 == ">" }), text.contains("=") else { return nil }
        if let middle = text.firstRange(of: "><") {
            let left = text[..<middle.lowerBound].count, right = text[middle.upperBound...].count
            guard left > 0, right > 0, !text.replacing("><", with: "").contains(where: { $0 != "=" }) else { return nil }
            let share = Double(left) / Double(left + right)
            return share < 0.25 ? "left" : share >= 0.75 ? "right" : "center"
        }
        if text.hasPrefix("<"), text.hasSuffix(">") { return "left" }  // justified
        if text.hasPrefix("<") { return "left" }
        if text.hasSuffix(">") { return "right" }
        return nil
    }

    /// The red, green and blue (0-255) and alpha (0-1) of a `#rgb`, `#rrggbb` or `#rrggbbaa` colour, or of
    /// `transparent` (black, alpha 0, as Harlowe has it); nil for another.
    static func components(_ colour: String) -> (r: Double, g: Double, b: Double, a: Double)? {
        if colour.lowercased() == "transparent" { return (0, 0, 0, 0) }
        var digits = Array(colour.lowercased())
        guard digits.first == "#" else { return nil }
        digits.removeFirst()
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8, let value = Int(String(digits), radix: 16) else { return nil }
        let rgb = digits.count == 8 ? value >> 8 : value
        let alpha = digits.count == 8 ? Double(value & 0xFF) / 255 : 1
        return (Double(rgb >> 16 & 0xFF), Double(rgb >> 8 & 0xFF), Double(rgb & 0xFF), alpha)
    }

    /// Two colours blended as Harlowe's `+` does (each channel: the sum × 0.6, at most 255; the alpha their
    /// mean, so `red + transparent` is a half-transparent red); nil unless both are colours `components` reads.
    static func blend(_ left: String, _ right: String) -> String? {
        guard let a = components(left), let b = components(right) else { return nil }
        func channel(_ x: Double, _ y: Double) -> Double { min(255, ((x + y) * 0.6).rounded()) }
        return rgb(channel(a.r, b.r), channel(a.g, b.g), channel(a.b, b.b), alpha: (a.a + b.a) / 2)
    }

    /// `(rgb: r, g, b)` / `(rgba: r, g, b, a)` as `#rrggbb` (each 0-255, rounded and clamped), or `#rrggbbaa`
    /// when `alpha` (0-1) is under 1: drawn blended with the background (docs/twine.md, "Colours and alignment").
    static func rgb(_ red: Double, _ green: Double, _ blue: Double, alpha: Double = 1) -> String {
        func byte(_ value: Double) -> Int { Int(max(0, min(255, value.rounded()))) }
        let opaque = cFormat("#%02x%02x%02x", byte(red), byte(green), byte(blue))
        let alphaByte = byte(alpha * 255)
        return alphaByte == 255 ? opaque : opaque + cFormat("%02x", alphaByte)
    }

    /// A colour's data name as Harlowe reads it (`$c's r`): `r`, `g`, `b` (0-255), `a` (0-1, two decimals), `h` (0-359,
    /// whole), `s`, `l` (0-1); nil for another name or a colour `components` does not read.
    static func property(_ name: String, of colour: String) -> Double? {
        guard let (r, g, b, a) = components(colour) else { return nil }
        switch name {
        case "r": return r
        case "g": return g
        case "b": return b
        case "a": return (a * 100).rounded() / 100  // kept in a byte: to two decimals, as written
        case "h", "s", "l":
            let (red, green, blue) = (r / 255, g / 255, b / 255)
            let high = max(red, green, blue), low = min(red, green, blue), delta = high - low
            let lightness = (high + low) / 2
            if name == "l" { return lightness }
            guard delta > 0 else { return 0 }  // a grey: no hue, no saturation
            if name == "s" { return lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low) }
            let sector = high == red ? (green - blue) / delta + (green < blue ? 6 : 0) : high == green ? (blue - red) / delta + 2 : (red - green) / delta + 4
            return (sector * 60).rounded().truncatingRemainder(dividingBy: 360)
        default: return nil
        }
    }

    /// `(hsl: h, s, l)` / `(hsla: h, s, l, a)` (hue in degrees, saturation, lightness and alpha 0-1) as
    /// `rgb(_:_:_:alpha:)` writes it.
    static func hsl(_ hue: Double, _ saturation: Double, _ lightness: Double, alpha: Double = 1) -> String {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let s = max(0, min(1, saturation)), l = max(0, min(1, lightness))
        let chroma = (1 - abs(2 * l - 1)) * s
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = l - chroma / 2
        return rgb((r + m) * 255, (g + m) * 255, (b + m) * 255, alpha: alpha)
    }
}
