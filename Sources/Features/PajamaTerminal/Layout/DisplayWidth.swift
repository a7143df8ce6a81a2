import PajamaModel

/// Terminal cell widths of text, in pure Swift so layout is the same on every machine and testable.
public enum DisplayWidth {
    /// The replacement drawn for control characters and escape sequences found in story text.
    public static let replacement: Character = "\u{FFFD}"

    /// Cells taken by one grapheme: 0 (combining only), 1, or 2 (wide CJK, emoji).
    public static func of(_ character: Character) -> Int {
        // ASCII takes one cell (control characters are replaced before drawing); this skips the Unicode
        // property lookups below, which were the largest cost of composing a frame (perf).
        if character.isASCII { return 1 }
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
            || character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji
        {
            return 2
        }
        if isZeroWidth(first) { return 0 }
        return isWide(first.value) ? 2 : 1
    }

    /// Cells taken by a string.
    public static func of(_ text: String) -> Int {
        // Printable ASCII: one character per byte, one cell each.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
            || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v) || (0x20000...0x3FFFD).contains(v)
    }

    /// `text` with every control character, escape sequence and bidirectional override replaced by one
    /// U+FFFD (see `UntrustedText.sanitize`), so untrusted story text never reaches the terminal as control.
    public static func sanitize(_ text: String) -> String { UntrustedText.sanitize(text) }
}
