import Foundation

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
        let value = colour.trimmingCharacters(in: .whitespaces)
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
        if let middle = text.range(of: "><") {
            let left = text[..<middle.lowerBound].count, right = text[middle.upperBound...].count
            guard left > 0, right > 0, !text.replacingOccurrences(of: "><", with: "").contains(where: { $0 != "=" }) else { return nil }
            let share = Double(left) / Double(left + right)
            return share < 0.25 ? "left" : share >= 0.75 ? "right" : "center"
        }
        if text.hasPrefix("<"), text.hasSuffix(">") { return "left" }  // justified
        if text.hasPrefix("<") { return "left" }
        if text.hasSuffix(">") { return "right" }
        return nil
    }

    /// The red, green and blue of a `#rgb` or `#rrggbb` colour, nil for another.
    static func components(_ colour: String) -> (Double, Double, Double)? {
        var digits = Array(colour.lowercased())
        guard digits.first == "#" else { return nil }
        digits.removeFirst()
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6, let value = Int(String(digits), radix: 16) else { return nil }
        return (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
    }

    /// Two colours blended as Harlowe's `+` does (each channel: the sum × 0.6, at most 255); nil unless both are
    /// `#hex` colours.
    static func blend(_ left: String, _ right: String) -> String? {
        guard let a = components(left), let b = components(right) else { return nil }
        return rgb(min(255, ((a.0 + b.0) * 0.6).rounded()), min(255, ((a.1 + b.1) * 0.6).rounded()), min(255, ((a.2 + b.2) * 0.6).rounded()))
    }

    /// `(rgb: r, g, b)` as `#rrggbb` (each 0-255, rounded and clamped).
    static func rgb(_ red: Double, _ green: Double, _ blue: Double) -> String {
        func byte(_ value: Double) -> Int { Int(max(0, min(255, value.rounded()))) }
        return String(format: "#%02x%02x%02x", byte(red), byte(green), byte(blue))
    }

    /// `(hsl: h, s, l)` (hue in degrees, saturation and lightness 0-1) as `#rrggbb`.
    static func hsl(_ hue: Double, _ saturation: Double, _ lightness: Double) -> String {
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
        return rgb((r + m) * 255, (g + m) * 255, (b + m) * 255)
    }
}
