import Foundation
import PajamaModel
import PajamaStorage
import Testing

/// The author's live preview, its pure parts: which file event means which reload (`StoryChange.plan`), and
/// how a burst of events becomes one batch (`ChangeDebouncer`), with made-up events and instants.
@Suite struct LivePreviewPlanTests {
    func asset(_ path: String) -> AssetPath { try! AssetPath(validating: path) }

    @Test func eachFileMeansItsReload() {
        let change = StoryChange.plan([
            FolderEvent(.written, "story.json"),
            FolderEvent(.written, "beats/storm.json"),
            FolderEvent(.removed, "beats/shore.json"),
            FolderEvent(.written, "assets/images/title.png"),
            FolderEvent(.removed, "assets/sounds/wave.wav"),
        ])
        #expect(change.manifest)
        #expect(change.beats == ["storm", "shore"])
        #expect(change.assets == [asset("assets/images/title.png"), asset("assets/sounds/wave.wav")])
        #expect(!change.everything && !change.isEmpty)
    }

    @Test func onlyABeatChangedReloadsOnlyThatBeat() {
        let change = StoryChange.plan([FolderEvent(.written, "beats/storm.json"), FolderEvent(.written, "beats/storm.json")])
        #expect(change == StoryChange(beats: ["storm"]))
    }

    @Test func editorsScratchFilesAndEmptyFoldersChangeNothing() {
        let change = StoryChange.plan([
            FolderEvent(.written, "beats/.storm.json.swp"), FolderEvent(.written, "beats/storm.json~"), FolderEvent(.written, "beats/4913"),
            FolderEvent(.removed, "story.json.tmp"), FolderEvent(.written, ".hidden"), FolderEvent(.folderAdded, "assets/new"),
        ])
        #expect(change.isEmpty, "\(change)")
    }

    @Test func aFileInBeatsThatIsNoBeatIsAnAsset() {
        // `beats/notes.txt` is no beat file; a beat id that is not valid is not a beat either.
        let change = StoryChange.plan([FolderEvent(.written, "beats/notes.txt"), FolderEvent(.written, "beats/bad id.json")])
        #expect(change.beats.isEmpty)
        #expect(change.assets == [asset("beats/notes.txt"), asset("beats/bad id.json")])
    }

    @Test func anOverflowOrAFolderGoneReloadsEverything() {
        let change = StoryChange.plan([FolderEvent(.overflow, "")])
        #expect(change.everything && change.manifest)
        #expect(StoryChange.plan([FolderEvent(.folderRemoved, "assets/images")]).everything)
        #expect(StoryChange.plan([FolderEvent(.folderRemoved, "assets/.cache")]).isEmpty, "a hidden folder was never watched")
    }

    // MARK: Debouncing

    let t0 = ContinuousClock.now

    @Test func aBurstBecomesOneBatchOnceItIsQuiet() {
        var debouncer = ChangeDebouncer(quiet: .milliseconds(100))
        #expect(debouncer.deadline == nil)
        // An editor's save: the temporary file written, renamed over the beat, within a few milliseconds.
        debouncer.add([FolderEvent(.written, "beats/.storm.json.tmp")], at: t0)
        debouncer.add([FolderEvent(.removed, "beats/.storm.json.tmp"), FolderEvent(.written, "beats/storm.json")], at: t0 + .milliseconds(3))
        debouncer.add([FolderEvent(.written, "beats/storm.json")], at: t0 + .milliseconds(40))
        #expect(debouncer.deadline == t0 + .milliseconds(140))
        #expect(debouncer.take(at: t0 + .milliseconds(139)) == nil, "not quiet yet")
        let batch = debouncer.take(at: t0 + .milliseconds(140))
        #expect(batch == [FolderEvent(.written, "beats/.storm.json.tmp"), FolderEvent(.removed, "beats/.storm.json.tmp"),
                          FolderEvent(.written, "beats/storm.json")], "each event once, in order")
        #expect(debouncer.deadline == nil && debouncer.take(at: t0 + .seconds(5)) == nil, "one reload for the burst")
        #expect(StoryChange.plan(batch ?? []) == StoryChange(beats: ["storm"]))
    }

    @Test func eventsThatNeverStopStillGiveABatchEverySecond() {
        var debouncer = ChangeDebouncer(quiet: .milliseconds(100), longest: .seconds(1))
        var now = t0
        for _ in 0..<30 {
            debouncer.add([FolderEvent(.written, "assets/log.txt")], at: now)
            now += .milliseconds(50)
        }
        #expect(debouncer.deadline == t0 + .seconds(1))
        #expect(debouncer.take(at: t0 + .seconds(1)) == [FolderEvent(.written, "assets/log.txt")])
    }

    @Test func twoSavesFarApartAreTwoBatches() {
        var debouncer = ChangeDebouncer(quiet: .milliseconds(100))
        debouncer.add([FolderEvent(.written, "story.json")], at: t0)
        #expect(debouncer.take(at: t0 + .milliseconds(100)) == [FolderEvent(.written, "story.json")])
        debouncer.add([FolderEvent(.written, "beats/start.json")], at: t0 + .seconds(2))
        #expect(debouncer.take(at: t0 + .seconds(2) + .milliseconds(100)) == [FolderEvent(.written, "beats/start.json")])
    }
}
