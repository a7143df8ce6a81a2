import Foundation
@testable import PajamaLoading
@testable import PajamaModel
@testable import PajamaReading
import PajamaTestSupport
import Testing

/// A content whose resident view (`StoryContent.resident`, the only synchronous question) answers from
/// `inMemory` while every load is recorded: a move that is not answered from memory shows in `loads`.
actor ResidentOnlyContent: StoryContent {
    /// What the resident view has: every beat, and the pictures listed.
    struct InMemory: ResidentContent {
        let beats: [String: Beat]
        let pictures: Set<AssetPath>
        let manifest: StoryManifest
        func beat(_ id: String) -> Beat? { beats[id] }
        func image(_ path: AssetPath) -> StoryImage? { pictures.contains(path) ? .textArt(lines: ["*"]) : nil }
        func sound(_ path: AssetPath) -> LoadedSound? { nil }
        func criticalAssetsLoaded(for location: StoryLocation, in beat: Beat) -> Bool {
            guard let page = beat.page(withId: location.pageId) else { return true }
            return page.assetReferences(beatId: beat.id).allSatisfy {
                manifest.criticality(of: $0) != .critical || $0.role.isSound || pictures.contains($0.path)
            }
        }
    }

    nonisolated let manifest: StoryManifest
    nonisolated let resident: any ResidentContent
    private let beats: [String: Beat]
    /// Loads started.
    private(set) var loads: [String] = []

    init(manifest: StoryManifest, beats: [Beat], picturesInMemory: Set<AssetPath>) {
        self.manifest = manifest
        self.beats = Dictionary(uniqueKeysWithValues: beats.map { ($0.id, $0) })
        resident = InMemory(beats: self.beats, pictures: picturesInMemory, manifest: manifest)
    }

    func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        loads.append("beat \(id)")
        guard let beat = beats[id] else { throw AssetLoadError(.notFound, subject: "beat \(id)") }
        return beat
    }
    func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {
        loads.append("assets of \(location.pageId)")
    }
    func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage { .textArt(lines: ["*"]) }
    func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound {
        throw AssetLoadError(.network, subject: path.value, detail: "no sound here")
    }
    func readerMoved(to location: StoryLocation) {}
}

@MainActor @Suite struct ResidentContentTests {
    func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    @Test func movesToPagesInMemoryAreAnsweredFromMemoryWithoutALoad() async {
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let content = ResidentOnlyContent(manifest: manifest, beats: beats, picturesInMemory: [path("choice.png")])
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start()
        await vm.changePage(.advance)
        await vm.changePage(.advance)
        #expect(page(vm)?.page.id == "choose")
        await vm.changePage(.back)
        #expect(page(vm)?.page.id == "text")
        await vm.changePage(.advance)
        await vm.changePage(.choose(1))
        #expect(page(vm)?.location.beatId == "right")
        #expect(await content.loads == [])
    }

    @Test func aCriticalPictureNotInMemoryIsStillWaitedFor() async {
        let (manifest, beats) = ReaderViewModelTests.story(lineByLine: false)
        let content = ResidentOnlyContent(manifest: manifest, beats: beats, picturesInMemory: [])
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: StoryLocation(beatId: "start", pageId: "text"))
        await vm.changePage(.advance)
        #expect(page(vm)?.page.id == "choose")
        // The gate: the page was entered only after its critical picture was loaded.
        #expect(await content.loads == ["assets of choose"])
    }

    @Test func theManagersResidentViewFollowsItsLoadsTiersAndOverrides() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-resident")
        defer { dir.remove() }
        try dir.write("story/story.json", """
            {"format":1,"id":"r","title":"R","startBeatId":"a","beats":["a","b"],
             "assets":{"criticality":{"assets/p.png":"critical"}}}
            """)
        try dir.write("story/beats/a.json", #"{"id":"a","pages":[{"id":"one","type":"text","lines":["x"],"imageUrl":"assets/p.png"}],"nextBeatId":"b"}"#)
        try dir.write("story/beats/b.json", #"{"id":"b","pages":[{"id":"two","type":"text","lines":["y"]}]}"#)
        try dir.write("story/assets/p.png", "bytes")
        let content = StoryContentManager(
            manifest: try StoryDecoder.decodeManifest(Array(try String(contentsOf: dir.url.appendingPathComponent("story/story.json"), encoding: .utf8).utf8)),
            source: FolderStorySource(folder: dir.url.appendingPathComponent("story").path), diskCache: nil,
            decodeImage: { _, _ in .textArt(lines: ["#"]) }, sound: nil, preloading: false)
        let resident = content.resident
        #expect(resident.beat("a") == nil)
        let a = try await content.loadBeat("a")
        #expect(resident.beat("a") == a)
        let one = StoryLocation(beatId: "a", pageId: "one")
        #expect(!resident.criticalAssetsLoaded(for: one, in: a))
        _ = try await content.loadImage(path("assets/p.png"))
        #expect(resident.criticalAssetsLoaded(for: one, in: a))
        // A run-time override is the gate's too.
        await content.setCriticality(.optional, for: path("assets/p.png"))
        await content.forgetImage(path("assets/p.png"))
        #expect(resident.criticalAssetsLoaded(for: one, in: a))
        await content.setCriticality(nil, for: path("assets/p.png"))
        #expect(!resident.criticalAssetsLoaded(for: one, in: a))
        // "▸ ready" from page a: its next beat, b, is not in memory until loaded.
        let onA = PageState(beat: a, page: a.pages[0], location: one, pageIndex: 0, revealedLines: 1, canGoBack: false, isEnding: false,
                            standing: ReadingStanding(pagesRead: 1, beatsSeen: 1, beatsListed: 2, seenBefore: false))
        #expect(!resident.nextPagesReady(after: onA))
        _ = try await content.loadBeat("b")
        #expect(resident.nextPagesReady(after: onA))
        // The memory tier switched off: nothing is resident.
        await content.setBeatMemoryEnabled(false)
        #expect(resident.beat("b") == nil)
    }
}
