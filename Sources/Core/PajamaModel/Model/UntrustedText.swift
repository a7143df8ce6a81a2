/// Text that came from outside (a story, a server, a peer) made safe to print.
public enum UntrustedText {
    /// `text` with every control character (C0, DEL, C1), every escape sequence and every bidirectional
    /// override or isolate (U+202A-U+202E, U+2066-U+2069: they reorder what follows on terminals that
    /// apply bidi) replaced by one U+FFFD, so untrusted story text can never send control sequences to
    /// the terminal nor disguise itself.
    public static func sanitize(_ text: String) -> String {
        // Most text has nothing to replace: it is returned as it is, without building a copy (a frame
        // sanitises every line it draws).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) || !text.unicodeScalars.contains(where: needsReplacing) {
            return text
        }
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            let v = scalar.value
            if v == 0x1B || v == 0x9B {
                // Swallow the rest of a CSI/OSC-style sequence: up to a final byte or a terminator.
                if v == 0x1B, let next = scalars.first, next == "[" || next == "]" || next == "P" || next == "(" {
                    scalars = scalars.dropFirst()
                    while let c = scalars.first {
                        scalars = scalars.dropFirst()
                        if (0x40...0x7E).contains(c.value) && next == "[" { break }
                        if c.value == 0x07 || c.value == 0x1B { break }
                    }
                }
                out.append(Unicode.Scalar(0xFFFD)!)
            } else if needsReplacing(scalar) {
                out.append(v == 0x09 ? " " : Unicode.Scalar(0xFFFD)!)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A control character (C0, DEL, C1, which includes ESC and CSI) or a bidirectional override or isolate.
    private static func needsReplacing(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
