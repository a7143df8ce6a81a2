import Foundation
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

/// A tap or a choice with a sound is cued whether or not a sound plays here: co-reading sends the cue to
/// followers, so a host reading with `--no-sound` (no sound client) or muted still gives them its sounds.
@MainActor @Suite struct SoundCueTests {
    typealias Story = ReaderTaskOwnershipTests

    @Test func aTapAndAChoiceAreCuedWithoutSound() async {
        let (manifest, beats) = Story.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p1"))
        await vm.changePage(.advance)  // a tap on a page with a tap sound
        #expect(await log.waitFor(.soundCued(Story.tap, .tap)))
        await vm.navigateToLocation(StoryLocation(beatId: "a", pageId: "p3"))
        await vm.changePage(.choose(0))  // a choice with a sound
        #expect(await log.waitFor(.soundCued(Story.choiceSound, .choice(0))))
        #expect(!log.events.contains { if case .soundPlayed = $0 { true } else { false } })
    }

    @Test func aChoiceWithoutASoundIsNotCued() async {
        let (manifest, beats) = Story.story()
        let content = HeldContent(manifest: manifest, beats: beats)
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "a", pageId: "p3"))
        await vm.changePage(.choose(1))
        #expect(await log.waitFor(.pageEntered(StoryLocation(beatId: "c", pageId: "p"))))
        #expect(!log.events.contains { if case .soundCued = $0 { true } else { false } })
    }
}
