import Foundation
import PajamaTestSupport
import Testing

/// A mouse report through the real terminal (xterm's SGR 1006 encoding, as kmous says), on the real
/// binary in tmux; the reader's other keys run in process (PajamaReaderTests.ReaderKeysTests).
@Suite(.serialized) struct ReaderKeysEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func mouseClickTakesAChoice() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        for text in ["On a rock", "Grandfather kept", "Tonight Grandfather", "Thunder walked", "Then, with", "Far away"] { try t.press("Space", thenWaitFor: text) }
        try t.press("Space", thenWaitFor: "What will Mina do?")
        // The text moves down when the page's picture arrives: take the choice's place from the screen
        // once the picture (chafa's block elements) is drawn.
        let screen = try t.waitUntil("the choice page with its picture") { screen in
            screen.contains("What will Mina do?") && screen.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("2. ") })
        let column = try #require(lines[row].range(of: "2. ")).lowerBound.utf16Offset(in: lines[row])
        // An SGR (1006) mouse press and release on the second choice, as xterm-256color's kmous says;
        // coordinates are 1-based.
        let x = column + 4, y = row + 1
        t.sendRaw("\u{1b}[<0;\(x);\(y)M")
        t.sendRaw("\u{1b}[<0;\(x);\(y)m")
        try t.waitFor("The door banged open")
    }
}
