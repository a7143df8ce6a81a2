import Foundation
import PajamaTestSupport
import Testing

/// The author's live preview on the real binary: `--watch` with a URL is a usage error (the preview itself
/// runs in process: PajamaReaderTests.LivePreviewTests).
@Suite(.serialized) struct LivePreviewEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let bundled = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func watchWithAURLIsAUsageError() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", "--watch", "http://127.0.0.1:9/lantern-keeper/"], width: 200, height: 30)
        defer { t.stop() }
        let screen = try t.waitFor("[exited 64]")
        #expect(screen.contains("--watch needs a story folder"), "\(screen)")
    }
}
