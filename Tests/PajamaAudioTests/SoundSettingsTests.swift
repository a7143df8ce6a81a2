import Foundation
import PajamaStorage
import PajamaAudio
import PajamaTestSupport
import Testing

/// sound.json through Codable: the keys files already have, a key left out, a bad file.
@Suite struct SoundSettingsTests {
    @Test func aFileWithOnlySomeKeysKeepsTheOthersDefaults() throws {
        let decoded = try JSONDecoder().decode(SoundSettings.self, from: Data(#"{"volume": 35}"#.utf8))
        #expect(decoded == SoundSettings(volume: 35, muted: false))
        let mutedOnly = try JSONDecoder().decode(SoundSettings.self, from: Data(#"{"muted": true}"#.utf8))
        #expect(mutedOnly == SoundSettings(volume: 80, muted: true))
    }

    @Test func savedSettingsLoadAgainAndExistingFilesStillLoad() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("pajama/sound.json")
        SoundSettings(volume: 12, muted: true).save(to: file)
        #expect(SoundSettings.load(from: file) == SoundSettings(volume: 12, muted: true))
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(object?["volume"] as? Int == 12 && object?["muted"] as? Bool == true)

        let old = try folder.write("old/sound.json", #"{"muted":false,"volume":140}"#)
        #expect(SoundSettings.load(from: old) == SoundSettings(volume: 100, muted: false))
        let bad = try folder.write("bad/sound.json", "not json")
        #expect(SoundSettings.load(from: bad) == SoundSettings())
        #expect(SoundSettings.load(from: folder.url.appendingPathComponent("missing.json")) == SoundSettings())
    }
}
