import Foundation
import PajamaModel
import PajamaFormats
import PajamaStoryFormat
import Testing

/// Which format a Twine file is: SugarCube's to SugarCubeFormat, Harlowe's still to TwineFormat, Chapbook's
/// and Snowman's named and refused.
@Suite struct SugarCubeFormatTests {
    static func story(format: String, body: String = ":: Start\nHello.") throws -> (folder: URL, file: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sugarcube-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("story.twee")
        try ":: StoryData\n{\"ifid\": \"00000000-0000-4000-8000-000000000002\", \"format\": \"\(format)\", \"start\": \"Start\"}\n\n\(body)\n"
            .write(to: file, atomically: true, encoding: .utf8)
        return (folder, file.path)
    }

    @Test func eachTwineFormatFindsItsOwnStories() throws {
        for (format, expected) in [("SugarCube", "sugarcube"), ("Harlowe", "twine"), ("", "twine")] {
            let (folder, file) = try Self.story(format: format)
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(FormatRegistry.all.find(at: file)?.format.name == expected, "a \(format) story")
            #expect(FormatRegistry.all.find(at: folder.path)?.format.name == expected, "a folder of a \(format) story")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(FormatRegistry.all.formats.filter { $0.holds(bytes, fileName: "story.twee") }.map(\.name) == [expected])
        }
    }

    @Test func aSugarCubeStoryReadsItsFirstPage() async throws {
        let (folder, file) = try Self.story(format: "SugarCube", body: ":: Start\n<<set $who to \"fox\">>Hello, $who. [[On|Next]]\n\n:: Next\nThe end.")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = await StorySources.open(file, seed: 1)
        let beat = try StoryDecoder.decodeBeat(try await source.read("beats/start.json"), file: "start")
        let texts = beat.pages.flatMap { page -> [String] in
            switch page.kind {
            case .text(let lines): lines
            case .choice(let prompt?, _): [prompt]
            default: []
            }
        }
        #expect(texts == ["Hello, fox. On"], "the link's text stays where it is written")
        #expect(beat.pages.contains { $0.choices.map(\.text) == ["On"] })
    }

    @Test func chapbookAndSnowmanAreNamedAndNotPlayedYet() async throws {
        for format in ["Chapbook", "Snowman"] {
            let (folder, file) = try Self.story(format: format)
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = await StorySources.open(file)
            do {
                _ = try await source.read("story.json")
                Issue.record("a \(format) story opened")
            } catch {
                #expect(error.reason.contains("is a \(format) story: Pajama does not play \(format) yet"), "\(error.reason)")
            }
        }
    }
}
