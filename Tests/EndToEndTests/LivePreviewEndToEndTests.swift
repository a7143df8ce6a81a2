import Foundation
import PajamaTestSupport
import Testing

/// The author's live preview on the real binary: `--watch` with a URL is a usage error (the preview itself
/// runs in process: PajamaReaderTests.LivePreviewTests).
@Suite(.serialized) struct LivePreviewEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let bundled = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func watchWithAURLIsAUsageError() throws {
        // Refused while the command line is read, before any screen: no terminal is needed to see it.
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", "--watch", "http://127.0.0.1:9/lantern-keeper/"], timeout: 60)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("--watch needs a story folder"), "\(run.stderr)")
    }
}
