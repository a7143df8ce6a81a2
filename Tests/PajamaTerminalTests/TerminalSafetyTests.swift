import PajamaTerminal
import Testing

/// Story text never reaches the terminal as control: every C0 and C1 control, every escape sequence
/// (CSI, OSC, DCS) and every bidirectional override or isolate becomes one U+FFFD (threat model,
/// docs/security.md). The rendering paths (page text, choices, pictures' text art, the status line,
/// error messages) all draw through `DisplayWidth.sanitize`.
@Suite struct TerminalSafetyTests {
    static let hostile: [String] = [
        "a\u{1b}[2Jb", "x\u{1b}]0;title\u{07}y", "x\u{1b}]8;;http://evil\u{1b}\\link", "\u{1b}P+q544e\u{1b}\\", "c1\u{9b}31m",
        "osc8bit\u{9d}0;t\u{9c}", "bell\u{07}", "cr\rlf\nvt\u{0b}ff\u{0c}", "del\u{7f}", "nul\u{0}",
        "\u{202e}gnp.exe", "a\u{202a}b\u{202b}c\u{202c}d\u{202d}e", "\u{2066}iso\u{2067}la\u{2068}te\u{2069}",
    ]

    static func isBidiControl(_ v: UInt32) -> Bool { (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) }

    @Test(arguments: hostile)
    func nothingThatControlsTheTerminalSurvives(_ text: String) {
        let safe = DisplayWidth.sanitize(text)
        for scalar in safe.unicodeScalars {
            let v = scalar.value
            #expect(!(v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)), "control U+\(String(v, radix: 16)) in \(safe.debugDescription)")
            #expect(!Self.isBidiControl(v), "bidi control U+\(String(v, radix: 16)) in \(safe.debugDescription)")
        }
    }

    @Test func bidiOverridesAndIsolatesAreShownAsReplacementCharacters() {
        #expect(DisplayWidth.sanitize("\u{202e}gnp.exe") == "\u{FFFD}gnp.exe")
        #expect(DisplayWidth.sanitize("\u{2066}a\u{2069}") == "\u{FFFD}a\u{FFFD}")
        // Marks that only hint a direction and change no order are kept (Arabic and Hebrew text needs them).
        #expect(DisplayWidth.sanitize("a\u{200f}b") == "a\u{200f}b")
    }

    @Test func ordinaryTextIsUntouched() {
        for text in ["Mina climbs the stairs.", "日本語のテキスト", "🦊 foxes", "שלום", "café"] {
            #expect(DisplayWidth.sanitize(text) == text)
        }
    }
}
