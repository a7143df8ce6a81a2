import Foundation
import PajamaTestSupport
import Testing

/// Story text with escape sequences and bidi overrides, on the real binary in a real terminal (tmux):
/// an OSC that would set the window title does not, a "clear screen" clears nothing, and a
/// right-to-left override is shown as U+FFFD instead of reversing the line (threat model,
/// docs/security.md).
@Suite(.serialized) struct HostileTextEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    @Test func escapesAndBidiOverridesInStoryTextAreShownSafely() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-hostile")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"hostile","title":"Hostile","startBeatId":"a","beats":["a"]}"#)
        try dir.write("beats/a.json", #"""
        {"id":"a","pages":[
          {"id":"t","type":"title","title":"\u001b]0;PWNED\u0007Hostile title","subtitle":"\u001b[2Jcleared?"},
          {"id":"x","type":"text","lines":["left \u202egnp.exe right","bell\u0007 and \u009b31m end"]}]}
        """#)
        let t = try TmuxSession([pajama, "read", "--no-sound", dir.path], width: 80, height: 24)
        defer { t.stop() }
        let title = try t.waitFor("Hostile title")
        #expect(title.contains("\u{FFFD}Hostile title"), "\(title)")
        #expect(title.contains("\u{FFFD}cleared?"), "\(title)")
        #expect(!t.paneValue("#{pane_title}").contains("PWNED"))
        let page = try t.press("Space", thenWaitFor: "right")
        #expect(page.contains("left \u{FFFD}gnp.exe right"), "\(page)")
        #expect(!page.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) }, "\(page)")
        #expect(!t.paneValue("#{pane_title}").contains("PWNED"))
        try t.press("q", thenWaitFor: "[exited 0]")
    }
}
