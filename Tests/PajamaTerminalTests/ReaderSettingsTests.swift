import Foundation
import PajamaTerminal
import PajamaTestSupport
import Testing

/// reader.json through Codable, with the key existing files have.
@Suite struct ReaderSettingsTests {
    @Test func theThemeIsSavedUnderItsKeyAndLoadsAgain() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("pajama/reader.json")
        ReaderSettings(theme: "dark").save(to: file)
        #expect(ReaderSettings.load(from: file) == ReaderSettings(theme: "dark"))
        #expect(try String(contentsOf: file, encoding: .utf8) == #"{"theme":"dark"}"#)
    }

    @Test func existingFilesStillLoad() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let old = try folder.write("a/reader.json", #"{ "theme" : "paper", "unknown": [1, 2] }"#)
        #expect(ReaderSettings.load(from: old).theme == "paper")
        let empty = try folder.write("b/reader.json", "{}")
        #expect(ReaderSettings.load(from: empty).theme == nil)
        let wrongType = try folder.write("c/reader.json", #"{"theme": 3}"#)
        #expect(ReaderSettings.load(from: wrongType).theme == nil)
        #expect(ReaderSettings.load(from: folder.url.appendingPathComponent("missing.json")).theme == nil)
    }
}
