import Foundation
import PajamaTestSupport
import Testing

@testable import PajamaModel
@testable import PajamaTerminal

/// Captions of sounds in the full-screen reader (issue 35 item 8): off by default; `c` turns them on (and
/// asks for the setting to be remembered); then each sound's caption is told on the status line as it plays:
/// a page_enter sound's as its page opens, a tap sound's when a tap shows more of the page.
@MainActor
struct ReaderCaptionsTests {
    static func beat() throws -> Beat {
        let gulls = SoundEffect(soundURL: try AssetPath(validating: "assets/gulls.ogg"), trigger: .pageEnter, caption: "gulls cry")
        let knock = SoundEffect(soundURL: try AssetPath(validating: "assets/knock.wav"), trigger: .tap, caption: "a knock")
        return Beat(id: "harbour", pages: [
            Page(id: "quay", kind: .text(lines: ["The quay.", "A door."]),
                 tools: [Tool(name: "sound_effect", soundEffect: gulls), Tool(name: "sound_effect", soundEffect: knock)]),
            Page(id: "quiet", kind: .text(lines: ["Quiet."])),
        ])
    }

    @Test func cTurnsCaptionsOnAndEachSoundIsToldAsItPlays() throws {
        let beat = try Self.beat()
        var h = PresenterHarness()
        h.show(.page(Fixture.page(beat, 0, revealed: 1)))
        #expect(!h.text().contains("gulls cry"), "captions are off until turned on")
        #expect(h.type("c") == [.setCaptions(true)])
        #expect(h.text().contains("captions on"))
        h.show(.page(Fixture.page(beat, 1, revealed: 1)))
        h.show(.page(Fixture.page(beat, 0, revealed: 1)))
        #expect(h.text().contains("♪ gulls cry"))
        h.show(.page(Fixture.page(beat, 0, revealed: 2)))
        #expect(h.text().contains("♪ a knock"))
        #expect(h.type("c") == [.setCaptions(false)])
        h.show(.page(Fixture.page(beat, 1, revealed: 1)))
        h.show(.page(Fixture.page(beat, 0, revealed: 1)))
        #expect(!h.text().contains("gulls cry"))
    }

    @Test func theSettingIsRememberedBesideTheTheme() throws {
        let temp = try TemporaryDirectory(prefix: "pajama-captions")
        defer { temp.remove() }
        let dir = temp.url.appendingPathComponent("config/reader.json")
        var settings = ReaderSettings.load(from: dir)
        #expect(settings.captions == nil)
        settings.theme = "night"
        settings.captions = true
        #expect(settings.save(to: dir) == nil)
        #expect(ReaderSettings.load(from: dir) == ReaderSettings(theme: "night", captions: true))
    }
}
