import Foundation
import PajamaStorage
import PajamaAudio
import PajamaTestSupport
import Testing

/// Volume and mute that cannot be remembered are said (returned and logged), not silently dropped.
@Suite struct SoundSettingsWriteFailureTests {
    @Test func anUnwritableConfigFolderIsReportedWithThePathAndTheReason() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-sound-settings-fail")
        defer { dir.remove() }
        try Data().write(to: dir.url.appendingPathComponent("config"))
        let file = dir.url.appendingPathComponent("config/sound.json")
        let problem = try #require(SoundSettings(volume: 30, muted: true).save(to: file))
        #expect(problem.contains(file.path), "\(problem)")
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("config"))
        #expect(SoundSettings(volume: 30, muted: true).save(to: file) == nil)
        #expect(SoundSettings.load(from: file) == SoundSettings(volume: 30, muted: true))
    }
}
