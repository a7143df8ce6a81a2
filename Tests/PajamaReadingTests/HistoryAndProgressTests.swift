import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaTestSupport
import Testing

/// Story content whose beats fail with a chosen error.
actor FailingContent: StoryContent {
    nonisolated let manifest: StoryManifest
    let inner: FakeContent
    let failures: [String: AssetLoadError]

    init(manifest: StoryManifest, beats: [Beat], failures: [String: AssetLoadError]) {
        self.manifest = manifest
        inner = FakeContent(manifest: manifest, beats: beats)
        self.failures = failures
    }

    /// The inner content's memory: a failing beat never gets there (its load throws before the inner one).
    nonisolated var resident: any ResidentContent { inner.resident }
    func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        if let failure = failures[id] { throw failure }
        return try await inner.loadBeat(id)
    }
    func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {
        try await inner.loadCriticalAssets(for: location, in: beat)
    }
    func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage { .textArt(lines: []) }
    func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound { throw AssetLoadError(.notFound, subject: path.value) }
    func readerMoved(to location: StoryLocation) async {}
}

@MainActor @Suite struct HistoryAndProgressTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func backBeyondTheKeptContentStillWorksAndANewMoveTruncates() {
        var history = ReadingHistory(limit: 500, contentKeptFor: 20)
        for i in 0..<30 { history.push(StoryLocation(beatId: "b\(i)", pageId: "p"), beat: beat("b\(i)")) }
        var seen: [String] = []
        while let entry = history.back() {
            seen.append(entry.location.beatId)
            #expect((entry.beat != nil) == (Int(entry.location.beatId.dropFirst())! >= 10))  // content for the last 20 only
        }
        #expect(seen == (0..<29).reversed().map { "b\($0)" })
        for _ in 0..<5 { _ = history.back() }  // already at the start: nothing happens
        #expect(history.current?.location.beatId == "b0")
        history.push(StoryLocation(beatId: "elsewhere", pageId: "p"), beat: nil)
        #expect(history.locations.map(\.beatId) == ["b0", "elsewhere"])
        #expect(!history.entries.isEmpty && history.canGoBack)
    }

    @Test func restoredHistoryIsBoundedAndHoldsNoContent() {
        var history = ReadingHistory(limit: 500, contentKeptFor: 20)
        history.restore((0..<800).map { StoryLocation(beatId: "b\($0)", pageId: "p") })
        #expect(history.entries.count == 500)
        #expect(history.entries.first?.location.beatId == "b300")
        #expect(history.entries.allSatisfy { $0.beat == nil })
        #expect(history.current?.location.beatId == "b799")
    }

    @Test func aSavedPlaceWhoseBeatIsGoneResumesAtTheNearestEarlierPlace() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resume")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        // Saved in an older version: start -> left -> "gone" (no longer in the story).
        let saved = ReadingProgress(
            location: StoryLocation(beatId: "gone", pageId: "p"),
            history: [StoryLocation(beatId: "start", pageId: "title"), StoryLocation(beatId: "left", pageId: "p"),
                      StoryLocation(beatId: "gone", pageId: "p")],
            storyVersion: "0")
        #expect(store.save(storyId: "s", saved) == nil)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        let log = NavigatorEventLog(vm.events())
        await vm.start()
        #expect(page(vm)?.location == StoryLocation(beatId: "left", pageId: "p"))
        #expect(await log.waitFor { _ in log.notices.contains { $0.contains("gone") && $0.contains("left") } })
        #expect(vm.history.locations.map(\.beatId) == ["start", "left"])
        await vm.close()
        #expect(store.load(storyId: "s").progress?.location.beatId == "left")
    }

    /// Shown through fuzz-progress (an earlier attempt's finding, its input replayed): a saved history
    /// naming a beat the story no longer has led back, step by step, to a "not found" screen with nowhere
    /// to go (no back, no skip): a dead end.
    @Test func aSavedHistoryNamingBeatsNoLongerInTheStoryIsDroppedAtResume() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resume-history")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let saved = ReadingProgress(
            location: StoryLocation(beatId: "left", pageId: "p"),
            history: [StoryLocation(beatId: "gone", pageId: "p"), StoryLocation(beatId: "start", pageId: "title"),
                      StoryLocation(beatId: "also-gone", pageId: "p"), StoryLocation(beatId: "left", pageId: "p")])
        #expect(store.save(storyId: "s", saved) == nil)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start()
        #expect(page(vm)?.location == StoryLocation(beatId: "left", pageId: "p"))
        #expect(vm.history.locations.map(\.beatId) == ["start", "left"])
        await vm.changePage(.back)
        #expect(page(vm)?.location == StoryLocation(beatId: "start", pageId: "title"))
        #expect(page(vm)?.canGoBack == false)
        await vm.close()
    }

    /// Shown through fuzz-progress (an input written for it, replayed): a file saying
    /// `"pagesRead": 9223372036854775807` crashed the first page turn (an overflow). The count is brought
    /// within 0...maximumPagesRead on reading; the place is kept.
    @Test func aCountOfPagesReadOutOfRangeIsBroughtWithinIt() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resume-count")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        try dir.write("s.json", #"{"finished":false,"history":[],"location":{"beatId":"left","lineIndex":0,"pageId":"p"},"pagesRead":9223372036854775807}"#)
        #expect(store.load(storyId: "s").progress?.pagesRead == ReadingProgress.maximumPagesRead)
        try dir.write("s.json", #"{"finished":false,"history":[],"location":{"beatId":"left","lineIndex":0,"pageId":"p"},"pagesRead":-5}"#)
        #expect(store.load(storyId: "s").progress?.pagesRead == 0)
        try dir.write("s.json", #"{"finished":false,"history":[],"location":{"beatId":"start","lineIndex":0,"pageId":"title"},"pagesRead":9223372036854775807}"#)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start()
        await vm.changePage(.advance)
        #expect(page(vm)?.location.beatId == "start")
        await vm.close()
    }

    @Test func theEndScreenCountsAreReadBackAndAChoiceCountOutOfRangeIsBroughtWithinIt() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resume-choices")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        try dir.write("s.json", #"{"choicesMade":3,"endingsFound":["left"],"finished":false,"history":[],"location":{"beatId":"start","lineIndex":0,"pageId":"choose"},"pagesRead":4}"#)
        #expect(store.load(storyId: "s").progress?.choicesMade == 3)
        #expect(store.load(storyId: "s").progress?.endingsFound == ["left"])
        try dir.write("s.json", #"{"choicesMade":9223372036854775807,"finished":false,"history":[],"location":{"beatId":"start","lineIndex":0,"pageId":"choose"},"pagesRead":0}"#)
        #expect(store.load(storyId: "s").progress?.choicesMade == ReadingProgress.maximumPagesRead)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: store)
        await vm.start()
        await vm.changePage(.choose(0))
        #expect(page(vm)?.location.beatId == "left")
        await vm.close()
    }

    @Test func aNetworkFailureAtResumeKeepsTheSavedPlace() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resume-net")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let saved = ReadingProgress(location: StoryLocation(beatId: "left", pageId: "p"),
                                    history: [StoryLocation(beatId: "start", pageId: "title"), StoryLocation(beatId: "left", pageId: "p")])
        #expect(store.save(storyId: "s", saved) == nil)
        let content = FailingContent(manifest: manifest, beats: beats, failures: ["left": AssetLoadError(.network, subject: "beat left")])
        let vm = ReaderViewModel(content: content, sound: nil, progress: store)
        await vm.start()
        guard case .failed(let failure) = vm.state else { Issue.record("expected failed, got \(vm.state)"); return }
        #expect(failure.error.kind == .network)
        #expect(store.load(storyId: "s").progress == saved)  // nothing was overwritten
    }

    @Test func savingLeavesNoTemporaryFilesAndEveryFileIsComplete() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-save")
        defer { dir.remove() }
        let store = ProgressStore(folder: dir.url)
        for i in 0..<20 {
            let progress = ReadingProgress(location: StoryLocation(beatId: "b\(i)", pageId: "p"),
                                           history: (0...i).map { StoryLocation(beatId: "b\($0)", pageId: "p") }, pagesRead: i)
            #expect(store.save(storyId: "s", progress) == nil)
            #expect(store.load(storyId: "s").progress == progress)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.json"])
    }
}
