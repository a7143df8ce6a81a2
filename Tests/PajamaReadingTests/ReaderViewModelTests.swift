import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// Story content in memory, with failures, and a gate on sound loads that tests can close and open.
actor FakeContent: StoryContent {
    nonisolated let manifest: StoryManifest
    /// What the loads have put in memory, asked as the app asks the live content.
    nonisolated let memory: ResidentMemory
    nonisolated var resident: any ResidentContent { memory }
    var beats: [String: Beat]
    var missingImages: Set<AssetPath> = []
    var soundLoads = 0
    /// While closed, sound loads wait (a slow source, without guessing how slow) until it opens.
    private var soundGateOpen = true
    private var soundWaiters: [CheckedContinuation<Void, Never>] = []
    /// Tests waiting for a number of sound loads to have started.
    private var loadWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(manifest: StoryManifest, beats: [Beat]) {
        self.manifest = manifest
        memory = ResidentMemory(manifest: manifest)
        self.beats = Dictionary(uniqueKeysWithValues: beats.map { ($0.id, $0) })
    }

    func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        guard let b = beats[id] else { throw AssetLoadError(.notFound, subject: "beat \(id)") }
        memory.keep(b)
        return b
    }
    func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {
        for path in criticalImages(location, beat) { _ = try await loadImage(path) }
    }
    /// The critical pictures of the page (this fake loads no sounds before entry).
    private func criticalImages(_ location: StoryLocation, _ beat: Beat) -> [AssetPath] {
        guard let page = beat.page(withId: location.pageId) else { return [] }
        return page.assetReferences(beatId: beat.id).filter { manifest.criticality(of: $0) == .critical && !$0.role.isSound }.map(\.path)
    }
    func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage {
        if missingImages.contains(path) { throw AssetLoadError(.notFound, subject: path.value) }
        let image = StoryImage.textArt(lines: ["*"])
        memory.keep(image, at: path)
        return image
    }
    func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound {
        soundLoads += 1
        let reached = loadWatchers.filter { $0.count <= soundLoads }
        loadWatchers.removeAll { $0.count <= soundLoads }
        for watcher in reached { watcher.continuation.resume() }
        if !soundGateOpen { await withCheckedContinuation { soundWaiters.append($0) } }
        let s = LoadedSound(key: SoundKey(storyId: "s", storyVersion: nil, path: path), frames: 1, sampleRate: 8000, channels: 1, byteCount: 4)
        memory.keep(s, at: path)
        return s
    }
    func readerMoved(to location: StoryLocation) {}
    func setMissing(_ path: AssetPath, _ missing: Bool) { if missing { missingImages.insert(path) } else { missingImages.remove(path) } }
    func preloadSound(_ path: AssetPath) async { _ = try? await loadSound(path) }
    func closeSoundGate() { soundGateOpen = false }
    /// Returns once `count` sound loads have started (at once if they have): the load's own start resumes it.
    func waitForSoundLoads(_ count: Int) async {
        if soundLoads >= count { return }
        await withCheckedContinuation { loadWatchers.append((count, $0)) }
    }
    func openSoundGate() {
        soundGateOpen = true
        let waiters = soundWaiters
        soundWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}

@MainActor @Suite struct ReaderViewModelTests {
    /// start: title, text(3 lines, tap sound, page_enter sound) -> choice (critical picture) -> left | right (endings)
    static func story(lineByLine: Bool = true) -> (StoryManifest, [Beat]) {
        let manifest = StoryManifest(id: "s", title: "S", startBeatId: "start", beats: ["start", "left", "right"], lineByLine: lineByLine)
        let start = Beat(id: "start", pages: [
            Page(id: "title", kind: .title(title: "T", subtitle: nil)),
            Page(id: "text", kind: .text(lines: ["a", "b", "c"]), tools: [
                Tool(name: "sound_effect", soundEffect: SoundEffect(soundURL: path("tap.wav"), trigger: .tap)),
                Tool(name: "sound_effect", soundEffect: SoundEffect(soundURL: path("enter.wav"), trigger: .pageEnter)),
            ]),
            Page(id: "choose", kind: .choice(prompt: "?", choices: [
                Choice(text: "L", targetBeatId: "left", soundURL: path("left.wav")), Choice(text: "R", targetBeatId: "right"),
            ]), imageUrl: path("choice.png")),
        ])
        return (manifest, [start, beat("left"), beat("right")])
    }

    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func readsToAnEndingWithLineByLineReveal() async throws {
        let (manifest, beats) = Self.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start()
        #expect(page(vm)?.location == StoryLocation(beatId: "start", pageId: "title"))
        await vm.changePage(.advance)
        #expect(page(vm)?.revealedLines == 1)
        await vm.changePage(.advance)
        #expect(page(vm)?.revealedLines == 2)
        #expect(page(vm)?.location.lineIndex == 1)
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        #expect(page(vm)?.page.id == "choose")
        await vm.changePage(.advance)  // a tap does not leave a choice page
        #expect(page(vm)?.page.id == "choose")
        await vm.changePage(.choose(1))
        #expect(page(vm)?.location.beatId == "right")
        #expect(page(vm)?.isEnding == true)
        await vm.changePage(.advance)
        guard case .finished = vm.state else { Issue.record("expected finished, got \(vm.state)"); return }
    }

    @Test func backThenChoosingAnewTruncatesTheForwardHistory() async {
        let (manifest, beats) = Self.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "choose"))
        await vm.changePage(.choose(0))
        #expect(page(vm)?.location.beatId == "left")
        await vm.changePage(.back)
        #expect(page(vm)?.page.id == "choose")
        await vm.changePage(.choose(1))
        #expect(vm.history.locations.map(\.beatId) == ["start", "right"])
    }

    @Test func historyKeepsContentForRecentEntriesAndIsBounded() {
        var history = ReadingHistory(limit: 500, contentKeptFor: 20)
        for i in 0..<600 { history.push(StoryLocation(beatId: "b\(i)", pageId: "p"), beat: beat("b\(i)")) }
        #expect(history.entries.count == 500)
        #expect(history.entries.filter { $0.beat != nil }.count == 20)
        #expect(history.entries.last?.beat != nil)
        #expect(history.entries.first?.location.beatId == "b100")
    }

    @Test func missingCriticalPictureFailsThenRetrySucceedsAndSkipIsOffered() async {
        let (manifest, beats) = Self.story(lineByLine: false)
        let content = FakeContent(manifest: manifest, beats: beats)
        await content.setMissing(path("choice.png"), true)
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "text"))
        await vm.changePage(.advance)
        guard case .failed(let failure) = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        #expect(failure.canSkip)
        #expect(failure.error.kind == .notFound)
        await content.setMissing(path("choice.png"), false)
        await vm.retry()
        #expect(page(vm)?.page.id == "choose")
    }

    @Test func missingBeatCannotBeSkipped() async {
        var (manifest, beats) = Self.story(lineByLine: false)
        beats.removeAll { $0.id == "left" }
        manifest.beats = ["start", "right"]
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "choose"))
        await vm.changePage(.choose(0))
        guard case .failed(let failure) = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        #expect(!failure.canSkip)
    }

    @Test func soundsPlayOnlyWhenLoadedAndTapSoundsLoadThenPlay() async throws {
        let (manifest, beats) = Self.story()
        let content = FakeContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "start", pageId: "text"))
        // page_enter sound not loaded: loaded, then played once (the reader is still on the page).
        #expect(await log.waitFor(.soundPlayed(path("enter.wav"), .pageEnter)))
        #expect(sound.played == [path("enter.wav")])
        #expect(!log.events.contains(.soundSkipped(path("enter.wav"), .pageEnter)))
        // Tap with the tap sound not loaded: loaded, then played once (the reader is still on the page).
        await vm.changePage(.advance)
        #expect(await log.waitFor(.soundPlayed(path("tap.wav"), .tap)))
        #expect(sound.played == [path("enter.wav"), path("tap.wav")])
        // Now loaded: the next tap plays it at once, exactly once more.
        await vm.changePage(.advance)
        #expect(await log.waitFor { $0.filter { $0 == .soundPlayed(path("tap.wav"), .tap) }.count == 2 })
        #expect(sound.played == [path("enter.wav"), path("tap.wav"), path("tap.wav")])
        #expect(await content.soundLoads == 2)
    }

    @Test func aTapSoundIsNotPlayedAfterTheReaderLeftThePage() async throws {
        let (manifest, beats) = Self.story(lineByLine: false)
        let content = FakeContent(manifest: manifest, beats: beats)
        let sound = SoundRecording()
        let vm = ReaderViewModel(content: content, sound: sound.client, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "start", pageId: "text"))
        #expect(await log.waitFor(.soundPlayed(path("enter.wav"), .pageEnter)))
        await content.closeSoundGate()
        await vm.changePage(.advance)  // tap (the sound starts loading, held at the gate) and leave the page
        #expect(page(vm)?.page.id == "choose")
        await content.openSoundGate()
        // The late tap sound is reported skipped, never played.
        #expect(await log.waitFor(.soundSkipped(path("tap.wav"), .tap)))
        #expect(!sound.played.contains(path("tap.wav")))
        #expect(await content.soundLoads == 2)  // the tap sound, and the text page's page_enter sound
    }

    @Test func progressIsSavedAndRestoredAndACorruptFileIsMovedAside() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = Self.story(lineByLine: false)
        let first = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await first.start()
        await first.changePage(.advance)
        await first.changePage(.advance)
        await first.close()
        let second = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await second.start()
        #expect(page(second)?.page.id == "choose")
        #expect(second.history.canGoBack)
        // Its writer stops before the file is spoiled (else its write behind could land after the spoiling).
        await second.close()
        try "{ not json".write(to: dir.url.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        let third = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        let log = NavigatorEventLog(third.events())
        await third.start()
        #expect(page(third)?.page.id == "title")
        #expect(await log.waitForNotice(containing: "moved to"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.contains("corrupt") })
    }

    @Test func aSavedPlaceThatNoLongerExistsFallsBackWithANotice() async {
        let (manifest, beats) = Self.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let log = NavigatorEventLog(vm.events())
        await vm.start(at: StoryLocation(beatId: "start", pageId: "gone"))
        #expect(page(vm)?.page.id == "title")
        #expect(await log.waitForNotice(containing: "page gone is no longer in beat start"))
    }
}

/// The gate on critical assets, through the real StoryContentManager and a folder story.
@MainActor @Suite struct CriticalityGateTests {
    func story() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-gate")
        try dir.write("story.json", #"{"format":1,"id":"gate","title":"Gate","startBeatId":"a","beats":["a"]}"#)
        try dir.write("beats/a.json", #"{"id":"a","pages":[{"id":"p","type":"text","lines":["hi"],"imageUrl":"assets/gone.png"}]}"#)
        return dir
    }

    func open(_ dir: TemporaryDirectory) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false, retry: RetryPolicy(attempts: 1))
    }

    @Test func aMissingImportantPictureDoesNotStopEntry() async throws {
        let dir = try story()
        defer { dir.remove() }
        let vm = ReaderViewModel(content: try await open(dir), sound: nil, progress: nil)
        await vm.start()
        guard case .page = vm.state else { Issue.record("expected the page, got \(vm.state)"); return }
    }

    @Test func aPictureMadeCriticalAtRunTimeGatesEntry() async throws {
        let dir = try story()
        defer { dir.remove() }
        let content = try await open(dir)
        await content.setCriticality(.critical, for: path("assets/gone.png"))
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start()
        guard case .failed(let failure) = vm.state else { Issue.record("expected the gate to stop entry, got \(vm.state)"); return }
        #expect(failure.canSkip && failure.error.kind == .notFound)
    }
}
