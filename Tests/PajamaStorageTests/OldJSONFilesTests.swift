import Foundation
import PajamaTestSupport
import Testing

@testable import PajamaModel
@testable import PajamaStorage

/// Files written by versions that saved with Foundation's `JSONEncoder` still load now that PajamaJSON reads
/// and writes them: the fixtures are in the exact shape it wrote (progress sorted and compact with `\/`
/// escaped, bookmarks pretty printed with ` : ` and the empty arrays it wrote as `[\n\n  ]`, ISO 8601 times,
/// settings compact in declaration order), and what is saved now reads back the same.
@Suite struct OldJSONFilesTests {
    static let oldProgress = #"{"choicesMade":2,"endingsFound":["end\/good"],"finished":false,"history":[{"beatId":"start","lineIndex":0,"pageId":"title"},{"beatId":"forest","lineIndex":1,"pageId":"p1"}],"location":{"beatId":"forest","lineIndex":1,"pageId":"p1"},"origin":{"seed":42,"state":"{\"random\":3,\"variables\":{}}","steps":[0,1],"version":"1.0\/beta"},"pagesRead":7,"seenPages":[{"beat":"start","page":"title"}],"storyVersion":"2026-11-01"}"#

    static let oldBookmarks = """
    {
      "autosaves" : [

      ],
      "bookmarks" : [
        {
          "firstWords" : "The wolf \\/ the well…",
          "history" : [
            {
              "beatId" : "left",
              "lineIndex" : 0,
              "pageId" : "p"
            }
          ],
          "location" : {
            "beatId" : "left",
            "lineIndex" : 0,
            "pageId" : "p"
          },
          "name" : "by the well",
          "savedAt" : "2026-11-19T08:26:40Z"
        }
      ]
    }
    """

    @Test func progressWrittenByTheFoundationEncoderLoads() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-old-progress")
        defer { dir.remove() }
        try dir.write("s.json", Data(Self.oldProgress.utf8))
        let store = ProgressStore(folder: dir.url)
        let (progress, warning) = store.load(storyId: "s")
        #expect(warning == nil)
        let loaded = try #require(progress)
        #expect(loaded.location == StoryLocation(beatId: "forest", pageId: "p1", lineIndex: 1))
        #expect(loaded.history.count == 2 && loaded.pagesRead == 7 && loaded.choicesMade == 2)
        #expect(loaded.endingsFound == ["end/good"])
        #expect(loaded.seenPages == [SeenPage(beat: "start", page: "title")])
        #expect(loaded.origin?.seed == 42 && loaded.origin?.steps == [0, 1] && loaded.origin?.version == "1.0/beta")
        #expect(loaded.origin?.state == #"{"random":3,"variables":{}}"#)
        #expect(store.save(storyId: "s", loaded) == nil)
        #expect(store.load(storyId: "s").progress == loaded)
        let saved = try String(contentsOf: dir.url.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(saved.hasPrefix(#"{"choicesMade":2,"endingsFound":["end/good"],"finished":false,"#), "sorted and compact: \(saved)")
    }

    @Test func bookmarksWrittenByTheFoundationEncoderLoad() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-old-bookmarks")
        defer { dir.remove() }
        try dir.write("s.json", Data(Self.oldBookmarks.utf8))
        let store = BookmarkStore(folder: dir.url)
        let (file, warning) = store.load(storyId: "s")
        #expect(warning == nil)
        let mark = try #require(file.bookmarks.first)
        #expect(file.autosaves.isEmpty && file.bookmarks.count == 1)
        #expect(mark.name == "by the well" && mark.firstWords == "The wolf / the well…")
        #expect(mark.savedAt == Date(timeIntervalSince1970: 1_795_076_800))
        #expect(mark.location == StoryLocation(beatId: "left", pageId: "p"))
        #expect(store.autosave(mark, storyId: "s") == nil)
        let saved = try String(contentsOf: dir.url.appendingPathComponent("s.json"), encoding: .utf8)
        #expect(saved.contains(#""savedAt" : "2026-11-19T08:26:40Z""#), "ISO 8601, pretty printed: \(saved)")
        #expect(store.load(storyId: "s").file == BookmarkFile(bookmarks: [mark], autosaves: [mark]))
    }

    @Test func aBookmarkWithABadTimeIsRefusedNamingTheField() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-old-bookmarks")
        defer { dir.remove() }
        try dir.write("s.json", Data(Self.oldBookmarks.replacingOccurrences(of: "2026-11-19T08:26:40Z", with: "yesterday").utf8))
        let warning = try #require(BookmarkStore(folder: dir.url).load(storyId: "s").warning)
        #expect(warning.contains(#""bookmarks[0].savedAt" is not valid (expected an ISO 8601 time, found "yesterday")"#), "\(warning)")
    }

    @Test func soundSettingsWrittenByTheFoundationEncoderLoad() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-old-settings")
        defer { dir.remove() }
        let url = dir.url.appendingPathComponent("sound.json")
        try dir.write("sound.json", Data(#"{"volume":35,"muted":true}"#.utf8))
        #expect(SoundSettings.load(from: url) == SoundSettings(volume: 35, muted: true))
        #expect(SoundSettings(volume: 60, muted: false).save(to: url) == nil)
        #expect(try String(contentsOf: url, encoding: .utf8) == #"{"volume":60,"muted":false}"#)
        #expect(SoundSettings.load(from: url) == SoundSettings(volume: 60, muted: false))
    }
}
