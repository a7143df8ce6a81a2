import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The live preview through the real loop (`ReaderController`, a real `ReaderViewModel` and
/// `StoryContentManager` over a folder, a `HeadlessTerminal`): after the content drops what changed,
/// `storyChanged` shows the page again with its new text and picture and the new title, and `showProblems`
/// opens and closes the problems overlay.
@MainActor @Suite struct LivePreviewControllerTests {
    @Test func aChangeShowsThePageAgainAndProblemsComeAndGo() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-live-controller")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"live","title":"Live","startBeatId":"hall"}"#)
        try dir.write("beats/hall.json", #"{"id":"hall","pages":[{"id":"cover","type":"title","title":"The Hall","imageUrl":"art/hall.txt"}]}"#)
        try dir.write("art/hall.txt", "OLD ART")
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false)
        let paths = Paths(cache: dir.url.appendingPathComponent("cache"), progress: dir.url.appendingPathComponent("progress"),
                          config: dir.url.appendingPathComponent("config"), state: dir.url.appendingPathComponent("state"), themes: [])
        let terminal = HeadlessTerminal(width: 60, height: 16)
        let controller = ReaderController(
            viewModel: ReaderViewModel(content: content, sound: nil, progress: nil), content: content, screen: terminal,
            sound: nil, storyTitle: content.manifest.title, themes: ["default"], paths: paths)
        let run = Task { await controller.run(start: nil, restart: false) }
        #expect(await terminal.waitForFrame { $0.contains("The Hall") && $0.contains("OLD ART") })

        // The beat, its picture and story.json saved anew.
        try dir.write("beats/hall.json", #"{"id":"hall","pages":[{"id":"cover","type":"title","title":"The Great Hall","imageUrl":"art/hall.txt"}]}"#)
        try dir.write("art/hall.txt", "NEW ART")
        try dir.write("story.json", #"{"format":1,"id":"live","title":"Live, revised","startBeatId":"hall"}"#)
        let art = try AssetPath(validating: "art/hall.txt")
        #expect(await content.reload(StoryChange(manifest: true, beats: ["hall"], assets: [art])) == nil)
        await controller.storyChanged(title: content.manifest.title, beats: ["hall"], assets: [art])
        #expect(await terminal.waitForFrame {
            $0.contains("The Great Hall") && $0.contains("NEW ART") && !$0.contains("OLD ART") && $0.contains("Live, revised")
        }, "\(terminal.text)")

        controller.showProblems([#"error: beats/hall.json: beat "hall": at pages[0].imageUrl: the file is missing"#])
        #expect(await terminal.waitForFrame { $0.contains("1 problem in the story") && $0.contains("beats/hall.json") }, "\(terminal.text)")
        terminal.push(.escape)
        #expect(await terminal.waitForFrame { !$0.contains("problem in the story") && $0.contains("⚠ 1 problem") }, "\(terminal.text)")
        controller.showProblems([])
        #expect(await terminal.waitForFrame { !$0.contains("⚠") && $0.contains("The Great Hall") }, "\(terminal.text)")

        terminal.push(.character("q"))
        guard case .quit = await run.value else { Issue.record("expected quit"); return }
    }
}
