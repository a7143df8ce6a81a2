import Foundation
import PajamaInkBridge
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// A picture or sound an ink story names that is not there is never a reason to stop (issue 35 item 4):
/// published games name pictures that were never published, Calico writes `# background: none.jpg` for
/// "no background". Entering a choice page waited for its picture (critical by default in Pajama's own
/// format) and failed: `play` exited 2 and the reader said "Could not load this page". A story's own
/// `# critical` tag still gates, as Pajama's own critical pictures do (docs/ink.md, "Tags").
@Suite struct MissingPictureTests {
    static func open(_ source: any StorySource) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: source, diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false)
    }

    /// Enters every page of the beat as the reader does (waiting for its critical assets); the pages that
    /// could not be entered, with why.
    static func pagesThatStop(_ content: StoryContentManager, _ beatId: String) async throws -> [String] {
        let beat = try await content.loadBeat(beatId)
        var stopped: [String] = []
        for page in beat.pages {
            do throws(AssetLoadError) {
                try await content.loadCriticalAssets(for: StoryLocation(beatId: beat.id, pageId: page.id), in: beat)
            } catch {
                stopped.append("\(page.id): \(error)")
            }
        }
        return stopped
    }

    @Test func aMissingPictureOrSoundNeverStopsAnInkStory() async throws {
        // IMAGE, AUDIO and BACKGROUND (on the choice page) name files the folder does not have.
        let dir = try InkReadingTests.folder(InkStoryFixtures.web)
        defer { dir.remove() }
        let content = try await Self.open(InkReadingTests.source(dir))
        let beat = try await content.loadBeat("start")
        #expect(beat.pages.last?.choices.isEmpty == false && beat.pages.last?.imageUrl != nil)
        #expect(try await Self.pagesThatStop(content, "start") == [])
        let choicePicture = AssetReference(path: try #require(beat.pages.last?.imageUrl), role: .choiceImage, beatId: "start", pageId: "choices")
        #expect(await content.criticality(of: choicePicture) == .important)
    }

    @Test func aPictureTaggedCriticalStillGates() async throws {
        let dir = try InkReadingTests.folder(InkStoryFixtures.web.replacingOccurrences(
            of: ##""#","^BACKGROUND: images/bg.png","/#","##,
            with: ##""#","^BACKGROUND: images/bg.png","/#","#","^critical","/#","##))
        defer { dir.remove() }
        let content = try await Self.open(InkReadingTests.source(dir))
        let stopped = try await Self.pagesThatStop(content, "start")
        #expect(stopped.contains { $0.hasPrefix("choices:") && $0.contains("images/bg.png") }, "\(stopped)")
    }

    @Test func aPackagesChoicePictureIsStillCriticalByDefault() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-missing")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"fork","title":"Fork","startBeatId":"start"}"#)
        try dir.write("beats/start.json", #"{"id":"start","pages":[{"id":"c","type":"choice","imageUrl":"assets/fork.png","#
            + #""choices":[{"text":"Left","targetBeatId":"start"}]}]}"#)
        let content = try await Self.open(FolderStorySource(folder: dir.path))
        #expect(try await Self.pagesThatStop(content, "start").count == 1)
        // A story may lower its own defaults: `assets.defaultCriticality`.
        try dir.write("story.json", #"{"format":1,"id":"fork","title":"Fork","startBeatId":"start","assets":{"defaultCriticality":"important"}}"#)
        let lowered = try await Self.open(FolderStorySource(folder: dir.path))
        #expect(lowered.manifest.defaultCriticality == .important)
        #expect(try await Self.pagesThatStop(lowered, "start") == [])
        #expect(try StoryDecoder.decodeManifest(StoryEncoder.encode(lowered.manifest)) == lowered.manifest)
    }
}
