import Foundation
import PajamaTestSupport
import Testing

/// The fault matrix's "disk full" (issue 11, section 4): the reader's data folder (XDG_DATA_HOME, where
/// progress is saved) on a 256 KB tmpfs that fills up mid-story. Reading goes on, the log says why
/// progress is not saved, nothing crashes, and the progress file is the last whole one.
@Suite(.serialized, .enabled(if: SmallTmpfs.isAvailable, "mounting a tmpfs is refused here (it needs root)"))
struct DiskFullEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    @Test func aFullDiskOnlyStopsTheSaving() throws {
        let home = try TemporaryDirectory(prefix: "pajama-e2e-full")
        defer { home.remove() }
        let disk = try SmallTmpfs(at: home.url.appendingPathComponent("data"), kilobytes: 256)
        defer { disk.unmount() }
        let t = try TmuxSession([pajama, "read", "--no-sound", "--start", "storm/what_now", story], home: home)
        defer { t.stop() }
        try t.waitFor("What will Mina do?")
        let file = home.path + "/data/pajama/progress/lantern-keeper.json"
        func location() -> String? {
            guard let data = FileManager.default.contents(atPath: file),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let location = object["location"] as? [String: Any] else { return nil }
            return "\(location["beatId"] ?? "-")/\(location["pageId"] ?? "-")"
        }
        #expect(Poll.until(timeout: 30) { location() == "storm/what_now" }, "no whole progress file before the disk filled")
        #expect(disk.fill() > 0)
        // The save of the next page fails, and the log says why.
        try t.press("1", thenWaitFor: "Up went Mina")
        let log = home.url.appendingPathComponent("state/pajama/pajama.log")
        #expect(Poll.until(timeout: 30) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("cannot save progress: No space left on device")
        }, "the failed save was not logged")
        // Reading goes on, back and forth, and the next move's status line says why progress is not saved
        // (cut to fit: the message names the file).
        try t.press("Left", thenWaitFor: "What will Mina do?")
        try t.waitFor("cannot save progress: No space left on device")
        try t.press("1", thenWaitFor: "Up went Mina")
        try t.press("q", thenWaitFor: "[exited 0]")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(location() == "storm/what_now", "the progress file is not the last whole one")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: home.path + "/data/pajama/progress")) ?? []
        #expect(leftovers == ["lantern-keeper.json"], "\(leftovers)")
    }
}
