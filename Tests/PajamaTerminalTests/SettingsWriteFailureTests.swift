import Foundation
import PajamaTerminal
import PajamaTestSupport
import Testing

/// A theme that cannot be remembered is said (returned and logged), not silently dropped.
@Suite struct SettingsWriteFailureTests {
    @Test func anUnwritableConfigFolderIsReportedWithThePathAndTheReason() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-settings-fail")
        defer { dir.remove() }
        // The config folder's place is taken by a file.
        try Data().write(to: dir.url.appendingPathComponent("config"))
        let file = dir.url.appendingPathComponent("config/reader.json")
        let problem = try #require(ReaderSettings(theme: "night").save(to: file))
        #expect(problem.contains(file.path), "\(problem)")
        #expect(ReaderSettings.load(from: file) == ReaderSettings())
        // Once the folder can be made, the same call saves and says nothing.
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("config"))
        #expect(ReaderSettings(theme: "night").save(to: file) == nil)
        #expect(ReaderSettings.load(from: file).theme == "night")
    }
}
