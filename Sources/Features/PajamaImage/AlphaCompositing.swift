import FoundationEssentials
import Glibc
import PajamaBasics

/// Lays a picture's transparent pixels on a backdrop, so what chafa turns into cells is opaque: black line
/// art on a transparent background (a 1-bit PNG with a transparent palette entry, or an alpha PNG) comes
/// out as lines on the page's colour, instead of blank cells or black on a dark theme.
public enum AlphaCompositing {
    /// Contrast ratio (WCAG) below which ink is taken to vanish into the background.
    public static let minimumContrast = 3.0

    /// The pixels (RGBA, unassociated alpha) laid on `backdrop`, every pixel opaque; nil when all of them
    /// are opaque already (nothing to do).
    public static func composite(rgba: [UInt8], onto backdrop: PictureBackdrop) -> [UInt8]? {
        guard stride(from: 3, to: rgba.count, by: 4).contains(where: { rgba[$0] < 255 }) else { return nil }
        let ground = self.ground(for: rgba, on: backdrop)
        let gr = Int(ground >> 16 & 0xFF), gg = Int(ground >> 8 & 0xFF), gb = Int(ground & 0xFF)
        var out = rgba
        for i in stride(from: 0, to: out.count - 3, by: 4) {
            let a = Int(out[i + 3])
            guard a < 255 else { continue }
            out[i] = mix(Int(out[i]), gr, alpha: a)
            out[i + 1] = mix(Int(out[i + 1]), gg, alpha: a)
            out[i + 2] = mix(Int(out[i + 2]), gb, alpha: a)
            out[i + 3] = 255
        }
        return out
    }

    /// The colour `color` (0xRRGGBB) at opacity `alpha` (255 opaque) laid on `ground` (0xRRGGBB): a story's
    /// partly transparent text colour on the background it is drawn on, as a picture's pixel on its backdrop.
    public static func over(_ color: UInt32, alpha: UInt8, onto ground: UInt32) -> UInt32 {
        let a = Int(alpha)
        func channel(_ shift: UInt32) -> UInt32 { UInt32(mix(Int(color >> shift & 0xFF), Int(ground >> shift & 0xFF), alpha: a)) << shift }
        return channel(16) | channel(8) | channel(0)
    }

    /// One channel of `value` at opacity `alpha` (0-255) over `ground`, rounded.
    private static func mix(_ value: Int, _ ground: Int, alpha: Int) -> UInt8 {
        UInt8((value * alpha + ground * (255 - alpha) + 127) / 255)
    }

    /// The colour the transparent pixels become: the background, unless the picture's ink (the mean of its
    /// visible pixels, weighted by their opacity) would hardly show on it; then the paper (or white or
    /// black, whichever stands out more from the ink), like a drawing laid on a sheet.
    static func ground(for rgba: [UInt8], on backdrop: PictureBackdrop) -> UInt32 {
        var r = 0, g = 0, b = 0, weight = 0
        for i in stride(from: 0, to: rgba.count - 3, by: 4) {
            let a = Int(rgba[i + 3])
            r += Int(rgba[i]) * a
            g += Int(rgba[i + 1]) * a
            b += Int(rgba[i + 2]) * a
            weight += a
        }
        guard weight > 0 else { return backdrop.background }  // nothing visible at all
        let ink = UInt32(r / weight) << 16 | UInt32(g / weight) << 8 | UInt32(b / weight)
        if contrast(ink, backdrop.background) >= minimumContrast { return backdrop.background }
        if let paper = backdrop.paper, contrast(ink, paper) >= minimumContrast { return paper }
        return contrast(ink, 0xFFFFFF) >= contrast(ink, 0x000000) ? 0xFFFFFF : 0x000000
    }

    /// The WCAG contrast ratio of two 0xRRGGBB colours, from 1 (the same) to 21 (black and white).
    public static func contrast(_ a: UInt32, _ b: UInt32) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Relative luminance (WCAG) of a 0xRRGGBB colour.
    static func luminance(_ color: UInt32) -> Double {
        func linear(_ value: UInt32) -> Double {
            let s = Double(value & 0xFF) / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color >> 16) + 0.7152 * linear(color >> 8) + 0.0722 * linear(color)
    }
}
