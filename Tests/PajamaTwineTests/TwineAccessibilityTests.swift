import Foundation
import PajamaModel
import PajamaTestSupport
import PajamaTwine
import Testing
@testable import PajamaTwineBridge

/// What a Twine story gives a reader who does not see its pictures or hear its sounds: a sound's caption from
/// its `<audio title>` or `aria-label` (shown as `[sound: ...]` in plain mode), and `validate`'s warning for
/// each picture without alt text (docs/twine.md, "Pictures and sounds").
@Suite struct TwineAccessibilityTests {
    static let twee = """
        :: StoryData
        {"ifid": "D674C58C-DEFA-4F70-B7A2-27742230C0AB", "format": "Harlowe", "format-version": "3.3.8", "start": "Shore"}

        :: Shore
        <img src="pictures/sea.png">The sea is loud. <audio src="sounds/gull.ogg" title="gulls cry"></audio>
        <audio aria-label="a bell far off"><source src="sounds/bell.mp3"><source src="sounds/bell.ogg"></audio>A bell.
        <audio src="sounds/wind.ogg" title="  "></audio>Wind.
        [[Up->Top]]

        :: Top
        <img src="pictures/moon.png" alt="a full moon over the lamp">The lamp is lit.
        """

    @Test func soundsCarryTheirCaptionsAndPicturesWithoutAltAreNamed() async throws {
        let directory = try TemporaryDirectory(prefix: "pajama-twine-a11y")
        defer { directory.remove() }
        _ = try directory.write("shore.twee", Self.twee)
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let start = try #require(try await source.madeBeat("start"))
        let effects = start.pages.flatMap(\.soundEffects)
        #expect(effects.map(\.soundURL.value) == ["sounds/gull.ogg", "sounds/bell.mp3", "sounds/wind.ogg"])
        #expect(effects.map(\.caption) == ["gulls cry", "a bell far off", nil])  // spaces alone are no caption

        let report = try #require(await source.validateItself(probe: NoProbe()))
        let warnings = report.findings.filter { $0.severity == .warning }.map(\.message)
        #expect(warnings.contains(
            "passage \"Shore\": the picture \"pictures/sea.png\" has no alt text: add alt=\"what it shows\" to its <img> (plain mode and screen readers say it in its place)"))
        #expect(!warnings.contains { $0.contains("pictures/moon.png") && $0.contains("alt text") }, "\(warnings)")
    }

    private struct NoProbe: AssetProbe {
        func problemWithSound(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
        func problemWithImage(_ path: AssetPath, _ bytes: [UInt8]) -> String? { nil }
    }
}
