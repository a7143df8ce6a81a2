import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// The author's live preview, what a change reloads: the real `StoryContentManager` over a real folder drops
/// what changed (a beat, a picture, story.json), and the view model shows the same page again (or the nearest
/// one, or the beat's error, from which back still works).
@MainActor @Suite struct LivePreviewReloadTests {
    /// A story of two beats: `start` (a title page with a picture, a text page, a last page) and `next`.
    func story() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-reload")
        try dir.write("story.json", #"{"format":1,"id":"live","title":"Live","startBeatId":"start","beats":["start","next"]}"#)
        try writeStart(dir, text: ["first", "second", "third"])
        try dir.write("beats/next.json", #"{"id":"next","pages":[{"id":"n","type":"text","lines":["next"]}]}"#)
        try dir.write("assets/art.txt", "old art")
        return dir
    }

    func writeStart(_ dir: TemporaryDirectory, text: [String], pages: [String] = ["cover", "body", "end"]) throws {
        var json: [String] = []
        if pages.contains("cover") { json.append(#"{"id":"cover","type":"title","title":"Cover","imageUrl":"assets/art.txt"}"#) }
        if pages.contains("body") {
            json.append(#"{"id":"body","type":"text","lines":[\#(text.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
        }
        if pages.contains("end") { json.append(#"{"id":"end","type":"text","lines":["the end page"]}"#) }
        try dir.write("beats/start.json", #"{"id":"start","pages":[\#(json.joined(separator: ","))],"nextBeatId":"next"}"#)
    }

    func open(_ dir: TemporaryDirectory) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false)
    }

    /// The content over `dir` and a view model reading from `location`.
    func reading(_ dir: TemporaryDirectory, at location: StoryLocation) async throws -> (StoryContentManager, ReaderViewModel) {
        let content = try await open(dir)
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: location)
        return (content, vm)
    }

    /// What the live preview does on a change of the beats `beats`: the content drops them, the page is shown again.
    func changed(_ beats: Set<String>, _ content: StoryContentManager, _ vm: ReaderViewModel) async {
        _ = await content.reload(StoryChange(beats: beats))
        await vm.reload(beats: beats)
    }

    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    func lines(_ vm: ReaderViewModel) -> [String] {
        if case .text(let lines) = page(vm)?.page.kind { return lines }
        return []
    }

    @Test func anEditedBeatIsShownAgainOnTheSamePage() async throws {
        let dir = try story()
        defer { dir.remove() }
        let (content, vm) = try await reading(dir, at: StoryLocation(beatId: "start", pageId: "body"))
        #expect(lines(vm) == ["first", "second", "third"])
        let pagesRead = page(vm)?.standing.pagesRead

        try writeStart(dir, text: ["FIRST", "second", "third"])
        #expect(content.resident.beat("start")?.pages.count == 3, "still the old beat until told")
        _ = await content.reload(StoryChange(beats: ["start"]))
        #expect(content.resident.beat("start") == nil, "dropped from memory")
        await vm.reload(beats: ["start"])
        #expect(page(vm)?.location.pageId == "body")
        #expect(lines(vm) == ["FIRST", "second", "third"])
        #expect(page(vm)?.standing.pagesRead == pagesRead, "showing the page again is not a page read")
        await vm.close()
    }

    @Test func aPageThatIsGoneFallsBackToTheNearestPageOfItsBeat() async throws {
        let dir = try story()
        defer { dir.remove() }
        let (content, vm) = try await reading(dir, at: StoryLocation(beatId: "start", pageId: "body"))
        try writeStart(dir, text: [], pages: ["cover", "end"])
        await changed(["start"], content, vm)
        #expect(page(vm)?.location.pageId == "end", "the page now at its place")
        await vm.close()
    }

    @Test func aBrokenBeatShowsItsErrorBackStillWorksAndAFixShowsThePageAgain() async throws {
        let dir = try story()
        defer { dir.remove() }
        let (content, vm) = try await reading(dir, at: StoryLocation(beatId: "start", pageId: "end"))
        await vm.changePage(.advance)  // on to beat next
        #expect(page(vm)?.location == StoryLocation(beatId: "next", pageId: "n"))

        try dir.write("beats/next.json", #"{"id":"next","pages":[{"id":"n","#)
        await changed(["next"], content, vm)
        guard case .failed(let failure) = vm.state else {
            Issue.record("expected the beat's error, got \(vm.state)")
            return
        }
        #expect(failure.error.kind == .invalidFormat && failure.canGoBack && !failure.canSkip)

        // Fixed: the next change shows the page again.
        try dir.write("beats/next.json", #"{"id":"next","pages":[{"id":"n","type":"text","lines":["fixed"]}]}"#)
        await changed(["next"], content, vm)
        #expect(page(vm)?.location == StoryLocation(beatId: "next", pageId: "n"))
        #expect(lines(vm) == ["fixed"])

        // Broken again, then back: the page before.
        try dir.write("beats/next.json", "{")
        await changed(["next"], content, vm)
        await vm.changePage(.back)
        #expect(page(vm)?.location == StoryLocation(beatId: "start", pageId: "end"))
        await vm.close()
    }

    @Test func aChangedPictureIsReadAgain() async throws {
        let dir = try story()
        defer { dir.remove() }
        let content = try await open(dir)
        let art = try AssetPath(validating: "assets/art.txt")
        #expect(try await content.loadImage(art) == .textArt(lines: ["old art"]))
        try dir.write("assets/art.txt", "new art")
        #expect(content.resident.image(art) == .textArt(lines: ["old art"]))
        _ = await content.reload(StoryChange(assets: [art]))
        #expect(content.resident.image(art) == nil)
        #expect(try await content.loadImage(art) == .textArt(lines: ["new art"]))
    }

    @Test func aChangedStoryJSONIsReadAgainAndABrokenOneKeepsTheOld() async throws {
        let dir = try story()
        defer { dir.remove() }
        let content = try await open(dir)
        try dir.write("story.json", #"{"format":1,"id":"live","title":"Live, revised","startBeatId":"next","beats":["start","next"]}"#)
        #expect(await content.reload(StoryChange(manifest: true)) == nil)
        #expect(content.manifest.title == "Live, revised" && content.manifest.startBeatId == "next")

        try dir.write("story.json", "{ not json")
        let problem = await content.reload(StoryChange(manifest: true))
        #expect(problem?.kind == .invalidFormat)
        #expect(content.manifest.title == "Live, revised", "the last good story.json is kept")
    }

    @Test func backAfterAChangeReadsTheBeatAgain() async throws {
        let dir = try story()
        defer { dir.remove() }
        let (content, vm) = try await reading(dir, at: StoryLocation(beatId: "start", pageId: "end"))
        await vm.changePage(.advance)
        try dir.write("beats/start.json", #"{"id":"start","pages":[{"id":"end","type":"text","lines":["rewritten end"]}],"nextBeatId":"next"}"#)
        await changed(["start"], content, vm)
        await vm.changePage(.back)
        #expect(lines(vm) == ["rewritten end"], "not the beat the history kept")
        await vm.close()
    }
}
