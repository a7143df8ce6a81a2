import Foundation
@testable import PajamaLoading
@testable import PajamaModel
@testable import PajamaReading
import PajamaTestSupport
import Testing

/// Where reading can go from a page, and whether the loading engine has those pages ready (the status
/// line's "▸ ready"), asked of the real `StoryContentManager` over a folder with preloading off.
@Suite struct NextPagesTests {
    static let start = Beat(id: "start", pages: [
        Page(id: "one", kind: .text(lines: ["a"])),
        Page(id: "two", kind: .text(lines: ["b"]), imageUrl: try! AssetPath(validating: "assets/two.txt")),
        Page(id: "ask", kind: .choice(prompt: "?", choices: [
            Choice(text: "L", targetBeatId: "left"), Choice(text: "R", targetBeatId: "right"), Choice(text: "L again", targetBeatId: "left"),
        ])),
    ])

    func state(_ beat: Beat, _ index: Int) -> PageState {
        PageState(beat: beat, page: beat.pages[index], location: StoryLocation(beatId: beat.id, pageId: beat.pages[index].id),
                  pageIndex: index, revealedLines: 1, canGoBack: false, isEnding: false)
    }

    @Test func theNextPlacesAreTheNextPageTheNextBeatOrEachChoicesBeat() {
        #expect(state(Self.start, 0).nextPlaces == [.page(StoryLocation(beatId: "start", pageId: "two"))])
        #expect(state(Self.start, 2).nextPlaces == [.beatStart("left"), .beatStart("right")])
        let last = Beat(id: "mid", pages: [Page(id: "p", kind: .text(lines: ["x"]))], nextBeatId: "end")
        #expect(state(last, 0).nextPlaces == [.beatStart("end")])
        let ending = Beat(id: "end", pages: [Page(id: "p", kind: .text(lines: ["x"]))])
        #expect(state(ending, 0).nextPlaces.isEmpty)
    }

    @Test func theNextPagesAreReadyOnceTheirBeatsAndCriticalAssetsAreLoaded() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-next-pages")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"next","title":"Next","startBeatId":"start","beats":["start","left","right"],"assets":{"criticality":{"assets/two.txt":"critical","assets/left.txt":"critical"}}}"#)
        try dir.write("beats/start.json", """
            {"id":"start","pages":[{"id":"one","type":"text","lines":["a"]},{"id":"two","type":"text","lines":["b"],"imageUrl":"assets/two.txt"},
              {"id":"ask","type":"choice","prompt":"?","choices":[{"text":"L","targetBeatId":"left"},{"text":"R","targetBeatId":"right"}]}]}
            """)
        try dir.write("beats/left.json", #"{"id":"left","pages":[{"id":"p","type":"text","lines":["l"],"imageUrl":"assets/left.txt"}]}"#)
        try dir.write("beats/right.json", #"{"id":"right","pages":[{"id":"p","type":"text","lines":["r"]}]}"#)
        try dir.write("assets/two.txt", "two")
        try dir.write("assets/left.txt", "left")
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false)
        let start = try await content.loadBeat("start")

        // Page one leads to page two, whose critical picture is not loaded yet.
        #expect(!content.resident.nextPagesReady(after: state(start, 0)))
        _ = try await content.loadImage(try AssetPath(validating: "assets/two.txt"))
        #expect(content.resident.nextPagesReady(after: state(start, 0)))

        // The choice page needs both beats in memory and left's critical picture.
        #expect(!content.resident.nextPagesReady(after: state(start, 2)))
        _ = try await content.loadBeat("left")
        _ = try await content.loadBeat("right")
        #expect(!content.resident.nextPagesReady(after: state(start, 2)), "left's critical picture is still missing")
        _ = try await content.loadImage(try AssetPath(validating: "assets/left.txt"))
        #expect(content.resident.nextPagesReady(after: state(start, 2)))
    }
}
