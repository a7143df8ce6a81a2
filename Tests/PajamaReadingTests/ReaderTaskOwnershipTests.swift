import Foundation
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// The tasks a reader starts for a page (sounds loading to play) belong to that page visit: leaving the
/// page cancels them, a late one never plays on a later page, and `close()` cancels everything.
@MainActor @Suite(.timeLimit(.minutes(1))) struct ReaderTaskOwnershipTests {
    static let tap = path("tap.wav"), enter = path("enter.wav"), choiceSound = path("choice.wav")

    /// a: p1 (two lines, a tap sound) -> p2 (a page_enter sound) -> p3 (choice: b with a sound, or c); b, c end.
    static func story() -> (StoryManifest, [Beat]) {
        let manifest = StoryManifest(id: "owned", title: "Owned", startBeatId: "a", beats: ["a", "b", "c"], lineByLine: true)
        let a = Beat(id: "a", pages: [
            Page(id: "p1", kind: .text(lines: ["one", "two"]), tools: [
                Tool(name: "sound_effect", soundEffect: SoundEffect(soundURL: tap, trigger: .tap)),
            ]),
            Page(id: "p2", kind: .text(lines: ["three"]), tools: [
                Tool(name: "sound_effect", soundEffect: SoundEffect(soundURL: enter, trigger: .pageEnter)),
            ]),
            Page(id: "p3", kind: .choice(prompt: "?", choices: [
                Choice(text: "B", targetBeatId: "b", soundURL: choiceSound), Choice(text: "C", targetBeatId: "c"),
            ])),
        ])
        return (manifest, [a, beat("b"), beat("c")])
    }

    @Test func leavingAPageCancelsItsPendingSoundLoad() async {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        await vm.changePage(.advance)  // reveals the second line; the tap sound starts loading and is held
        await content.record.waitUntilHeld(Self.tap.value)
        #expect(vm.location?.pageId == "p1")
        #expect(content.record.cancelled.isEmpty)
        await vm.changePage(.advance)  // leaves the page
        #expect(vm.location?.pageId == "p2")
        // Cancelled by the move itself: no waiting needed.
        #expect(content.record.cancelled.contains(Self.tap.value))
        #expect(await log.waitFor(.soundSkipped(Self.tap, .tap)))
        #expect(!sound.played.contains(Self.tap))
    }

    @Test func aSoundCuedByTheOwnerBelongsToTheFollowersPageVisit() async {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        vm.playCued(Self.tap, cue: .tap)  // not loaded yet: its load is held
        await content.record.waitUntilHeld(Self.tap.value)
        await vm.navigateToLocation(StoryLocation(beatId: "a", pageId: "p2"))  // the owner moved on: the visit ends
        #expect(content.record.cancelled.contains(Self.tap.value))
        #expect(await log.waitFor(.soundSkipped(Self.tap, .tap)))
        #expect(!sound.played.contains(Self.tap))
    }

    @Test func aLateSoundLoadNeverPlaysOnALaterPage() async {
        let (manifest, beats) = Self.story()
        // FakeContent's gate ignores cancellation: the load finishes after the reader left the page.
        let content = FakeContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        await content.closeSoundGate()
        await vm.changePage(.choose(0))  // the choice sound is not loaded: it loads for the page it led to
        #expect(vm.location?.beatId == "b")
        await content.waitForSoundLoads(1)
        #expect(await content.soundLoads == 1)
        await vm.changePage(.back)  // leaves that page before the sound arrives
        #expect(vm.location?.pageId == "p3")
        await content.openSoundGate()
        #expect(await log.waitFor(.soundSkipped(Self.choiceSound, .choice(0))))
        #expect(sound.played.isEmpty)
        #expect(!log.events.contains(.soundPlayed(Self.choiceSound, .choice(0))))
    }

    @Test func closeCancelsEverythingAndNoMoveCommitsAfterIt() async {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats, heldBeats: ["c"])
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let events = vm.events()
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p2"))  // its page_enter sound is held
        await content.record.waitUntilHeld(Self.enter.value)
        await vm.changePage(.advance)
        #expect(vm.location?.pageId == "p3")
        let move = Task { await vm.navigateToLocation(StoryLocation(beatId: "c", pageId: "p")) }
        await content.record.waitUntilHeld("beat c")
        // p2's sound was cancelled when the reader left it; nothing of p3 is pending but the move to c.
        #expect(content.record.cancelled == [Self.enter.value])
        await vm.close()
        await content.release("beat c")
        await move.value
        // The move under way never commits after close (the state stays what it was), and the streams end.
        #expect(vm.state == .loading(StoryLocation(beatId: "c", pageId: "p"), waitingFor: [.beat("c")]))
        #expect(!vm.history.locations.contains { $0.beatId == "c" })
        var received: [NavigatorEvent] = []
        for await event in events { received.append(event) }
        #expect(!received.contains(.pageEntered(StoryLocation(beatId: "c", pageId: "p"))))
        #expect(sound.played.isEmpty)
    }

    @Test func closeCancelsTheSoundsOfThePageShown() async {
        let (manifest, beats) = Self.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let events = vm.events()
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        await vm.changePage(.advance)
        await content.record.waitUntilHeld(Self.tap.value)
        await vm.close()
        #expect(content.record.cancelled == [Self.tap.value])
        #expect(vm.location?.pageId == "p1")
        // The stream ends at close; nothing was played.
        var received: [NavigatorEvent] = []
        for await event in events { received.append(event) }
        #expect(received.contains(.pageEntered(StoryLocation(beatId: "a", pageId: "p1"))))
        #expect(!received.contains(.soundPlayed(Self.tap, .tap)))
        #expect(sound.played.isEmpty)
    }
}
