import Foundation
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// The background sound as the reader plays it (docs/sound.md, "Background sound"): started by the page that
/// names it, kept across pages that name it too, stopped by a page that says stop, at the story's end, on
/// restart and when the reader closes; going back plays what that page had.
@MainActor @Suite(.timeLimit(.minutes(1))) struct BackgroundSoundReadingTests {
    static let rain = try! AssetPath(validating: "sounds/rain.wav")

    static func story() -> (StoryManifest, [Beat]) {
        func page(_ id: String, _ loop: BackgroundSound?) -> Page {
            Page(id: id, kind: .text(lines: ["Page \(id)."]), tools: loop.map { [$0.tool] } ?? [])
        }
        let manifest = StoryManifest(id: "loops", title: "Loops", startBeatId: "a")
        let a = Beat(id: "a", pages: [page("p1", .play(rain)), page("p2", .play(rain)), page("p3", nil), page("p4", .stop),
                                      page("p5", .play(rain))])
        return (manifest, [a])
    }

    @Test func theLoopPlaysAcrossPagesUntilAPageStopsItOrTheStoryEnds() async throws {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        await content.release(Self.rain.value)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        await sound.loopPlays(Self.rain)
        await vm.changePage(.advance)
        await vm.changePage(.advance)  // p3 says nothing: the loop goes on
        #expect(vm.location?.pageId == "p3")
        #expect(sound.loopChanges == ["start sounds/rain.wav"])
        await vm.changePage(.advance)  // p4: stop
        #expect(sound.loop == nil)
        await vm.changePage(.back)  // p3 again: it says nothing, the loop stays off
        #expect(sound.loop == nil)
        await vm.changePage(.back)  // p2: its loop again
        await sound.loopPlays(Self.rain)
        for _ in 0..<3 { await vm.changePage(.advance) }
        #expect(vm.location?.pageId == "p5")
        await sound.loopPlays(Self.rain)
        await vm.changePage(.advance)  // past the ending: the end screen, and silence
        guard case .finished = vm.state else {
            Issue.record("not at the end screen: \(vm.state)")
            return
        }
        #expect(sound.loop == nil)
        #expect(sound.loopChanges == ["start sounds/rain.wav", "stop", "start sounds/rain.wav", "stop", "start sounds/rain.wav", "stop"])
        await vm.close()
    }

    @Test func restartAndCloseStopTheLoop() async throws {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        await content.release(Self.rain.value)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p2"))
        await sound.loopPlays(Self.rain)
        await vm.restart()  // p1 names it again: stopped, then started from the beginning
        await sound.loopPlays(Self.rain)
        #expect(sound.loopChanges == ["start sounds/rain.wav", "stop", "start sounds/rain.wav"])
        await vm.close()
        #expect(sound.loop == nil)
    }

    @Test func aLoopStillLoadingWhenThePageIsLeftIsNotStarted() async throws {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        await content.record.waitUntilHeld(Self.rain.value)
        await vm.navigateToLocation(StoryLocation(beatId: "a", pageId: "p4"))  // stop, before it arrived
        #expect(content.record.cancelled.contains(Self.rain.value))
        #expect(sound.loop == nil)
        #expect(sound.loopChanges.isEmpty)
        await vm.close()
    }
}
