import Foundation
import PajamaModel
import PajamaStorage
import PajamaFormats
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The library says where the reader is in each story (never a count of pages turned), the endings found of
/// the story's total, the format, when it was last read and the description; the last read comes first.
@Suite struct LibraryStandingTests {
    /// A library of three bundled stories: The Lantern Keeper read to its second beat (five pages turned,
    /// going back and forth, one ending found earlier) ten minutes ago, The Night Garden opened three days
    /// ago, The Ferry Cat (ink) never opened.
    struct Fixture {
        let temp: TemporaryDirectory
        let folder: String
        let progress: ProgressStore

        init() throws {
            temp = try TemporaryDirectory(prefix: "pajama-library-standing")
            folder = temp.url.appendingPathComponent("stories").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for id in ["lantern-keeper", "night-garden", "ferry-cat"] {
                try FileManager.default.copyItem(atPath: PackagePaths.stories.appendingPathComponent(id).path, toPath: folder + "/" + id)
            }
            let manifest = folder + "/lantern-keeper/story.json"
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
                .replacingOccurrences(of: "\"title\": \"The Lantern Keeper\",", with: "\"title\": \"The Lantern Keeper\",\n  \"description\": \"A keeper, a storm, a light to save.\",")
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
            progress = ProgressStore(folder: temp.url.appendingPathComponent("progress"))
            let cover = StoryLocation(beatId: "start", pageId: "cover"), rock = StoryLocation(beatId: "start", pageId: "rock")
            let dark = StoryLocation(beatId: "storm", pageId: "dark")
            let lantern = ReadingProgress(location: dark, history: [cover, rock, dark], pagesRead: 5, endingsFound: ["light_returns"],
                                          seenPages: [cover, rock, dark].map(SeenPage.init))
            #expect(progress.save(storyId: "lantern-keeper", lantern) == nil)
            let garden = ReadingProgress(location: StoryLocation(beatId: "gate", pageId: "title"), history: [], pagesRead: 9)
            #expect(progress.save(storyId: "night-garden", garden) == nil)
            let files = temp.url.appendingPathComponent("progress")
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)],
                                                  ofItemAtPath: files.appendingPathComponent("lantern-keeper.json").path)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3 * 86400)],
                                                  ofItemAtPath: files.appendingPathComponent("night-garden.json").path)
        }
    }

    @Test func theScreenSaysWhereTheReaderIsTheEndingsTheFormatAndWhenLastRead() throws {
        let fixture = try Fixture()
        defer { fixture.temp.remove() }
        let entries = LibraryEntry.scan(fixture.folder, progress: fixture.progress, formats: .all)
        let text = LibraryEntry.render(entries, selected: 0, folder: fixture.folder, width: 120, height: 20, notice: nil).text()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("page 5") && !text.contains("page 9"), "the count of pages turned is not where the reader is:\n\(text)")
        // Last read first: the lantern ten minutes ago, the garden three days ago, then the cat, never opened.
        let order = ["The Lantern Keeper", "The Night Garden", "The Ferry Cat"].map { title in lines.firstIndex { $0.contains(title) } ?? -1 }
        #expect(order[0] >= 0 && order[0] < order[1] && order[1] < order[2], "\(text)")
        #expect(lines[order[0]].contains("read 10 min ago"), "\(text)")
        #expect(lines[order[1]].contains("read 3 days ago"), "\(text)")
        #expect(lines[order[2]].contains("new"), "\(text)")
        // The line under each title: format, place, endings, description.
        let lantern = lines[order[0] + 1]
        #expect(lantern.contains("Pajama · 18% seen · 1 of 2 endings · A keeper, a storm, a light to save."), "\(text)")
        #expect(lines[order[2] + 1].contains("ink · new"), "\(text)")
    }

    @Test func aChapterTitleIsWhereTheReaderIsAndTheStoryTitleIsNot() throws {
        let manifest = StoryManifest(id: "s", title: "The Story", startBeatId: "a", beats: ["a", "b"])
        let a = Beat(id: "a", pages: [Page(id: "t", kind: .title(title: "The Story", subtitle: nil)), Page(id: "p", kind: .text(lines: ["x"]))],
                     nextBeatId: "b")
        let b = Beat(id: "b", pages: [Page(id: "t", kind: .title(title: "Chapter Two", subtitle: nil)), Page(id: "p", kind: .text(lines: ["y"]))])
        let beats = ["a": a, "b": b]
        let inA = ReadingProgress(location: StoryLocation(beatId: "a", pageId: "p"), history: [StoryLocation(beatId: "a", pageId: "t")], pagesRead: 40,
                                  seenPages: [SeenPage(beat: "a", page: "t"), SeenPage(beat: "a", page: "p")])
        let inB = ReadingProgress(location: StoryLocation(beatId: "b", pageId: "p"), history: [], pagesRead: 40, endingsFound: ["b"])
        let first = LibraryStanding.of(inA, lastRead: nil, manifest: manifest, beats: { beats[$0] })
        #expect(first.place == "50% seen" && first.endings == "0 of 1 ending")
        let second = LibraryStanding.of(inB, lastRead: nil, manifest: manifest, beats: { beats[$0] })
        #expect(second.place == "at “Chapter Two”" && second.endings == "1 of 1 ending")
        // A story made as it is read (ink): the pages seen, the endings found without a total.
        let ink = LibraryStanding.of(inB, lastRead: nil, manifest: manifest, beats: nil)
        #expect(ink.place == "1 page seen" && ink.endings == "1 ending found")
        #expect(LibraryStanding.of(nil, lastRead: nil, manifest: manifest, beats: nil).place == "new")
    }

    @Test func whenLastReadIsSaidAsAPersonSaysIt() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func said(_ seconds: TimeInterval) -> String? { LibraryStanding(place: "", lastRead: now.addingTimeInterval(-seconds)).lastReadText(now: now) }
        #expect(said(5) == "just now")
        #expect(said(1500) == "25 min ago")
        #expect(said(40 * 86400)?.contains("20") == true)
        #expect(said(2 * 86400 + 60) == "2 days ago")
        #expect(LibraryStanding(place: "new").lastReadText(now: now) == nil)
    }
}
