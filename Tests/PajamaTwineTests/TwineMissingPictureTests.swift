import Foundation
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaTwineBridge

/// A picture a Twine story names that is not there never stops the reading (issue 35 item 4): the choice
/// page of a passage whose picture was never published is entered, as its text page is; a passage tagged
/// `critical` still waits for its pictures (docs/twine.md, "Pictures and sounds").
@Suite struct TwineMissingPictureTests {
    static let twee = """
        :: StoryTitle
        Crossroads

        :: StoryData
        {"ifid": "0B0E6E5A-3C1B-4C55-9B0C-6A1D2E0F4A11", "format": "Harlowe", "format-version": "3.3.8", "start": "Fork"}

        :: Fork
        <img src="pictures/never-published.png">
        [[Left->Gate]]
        [[Right->Gate]]

        :: Gate [critical]
        <img src="pictures/gate.png">
        [[Back->Fork]]
        """

    @Test func aMissingPictureOnAChoicePageDoesNotStopTheReading() async throws {
        let directory = try TemporaryDirectory(prefix: "pajama-twine-missing")
        defer { directory.remove() }
        try directory.write("crossroads.twee", Self.twee)
        let source = try #require(TwineStorySource.local(directory.path, seed: 1))
        let content = try await StoryContentManager.open(
            source: source, diskCache: nil, decodeImage: { _, _ throws(AssetLoadError) in .textArt(lines: ["*"]) }, sound: nil, preloading: false)
        let fork = try await content.loadBeat("start")
        let choices = try #require(fork.pages.last)
        #expect(choices.imageUrl?.value == "pictures/never-published.png" && !choices.choices.isEmpty)
        try await content.loadCriticalAssets(for: StoryLocation(beatId: fork.id, pageId: choices.id), in: fork)
        // The passage tagged critical waits for its picture, and says which is missing.
        let gate = try await content.loadBeat(choices.choices[0].targetBeatId)
        let gateChoices = try #require(gate.pages.last)
        await #expect(throws: AssetLoadError.self) {
            try await content.loadCriticalAssets(for: StoryLocation(beatId: gate.id, pageId: gateChoices.id), in: gate)
        }
    }
}
