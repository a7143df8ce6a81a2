import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// A beat whose one page offers a choice of `targets`.
func choiceBeatJSON(_ id: String, targets: [String]) -> String {
    let choices = targets.map { "{\"text\":\"\($0)\",\"targetBeatId\":\"\($0)\"}" }.joined(separator: ",")
    return "{\"id\":\"\(id)\",\"pages\":[{\"id\":\"q\",\"type\":\"choice\",\"choices\":[\(choices)]}]}"
}

@Suite(.timeLimit(.minutes(1))) struct PreloaderTests {
    static let manifest = StoryManifest(id: "s", title: "S", startBeatId: "a")

    func manager(_ source: any StorySource, policy: PreloadPolicy = .standard, manifest: StoryManifest = manifest,
                 sound: SoundClient? = nil, assetLoads: Int = 2) -> StoryContentManager {
        StoryContentManager(manifest: manifest, source: source, diskCache: nil,
                            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
                            sound: sound, preloadPolicy: policy, maximumConcurrentAssetLoads: assetLoads)
    }

    /// a offers b1...b5; each bi leads on to ci; z -> y is elsewhere in the story.
    static func fanOut() -> [String: String] {
        var files: [String: String] = ["beats/a.json": choiceBeatJSON("a", targets: ["b1", "b2", "b3", "b4", "b5"])]
        for i in 1...5 {
            files["beats/b\(i).json"] = beatJSON("b\(i)", next: "c\(i)")
            files["beats/c\(i).json"] = beatJSON("c\(i)")
        }
        files["beats/z.json"] = beatJSON("z", next: "y")
        files["beats/y.json"] = beatJSON("y")
        return files
    }

    @Test func atMostThreeBeatLoadsAtOnceAndTheNextBeatsFirst() async {
        let source = GatedSource(files: Self.fanOut())
        // Round 1's window, two steps deep past the choice: the order of levels is what is tested.
        let content = manager(source, policy: .wide())
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "q"))
        await source.waitUntilStarted(1)
        await source.release("beats/a.json")
        await source.waitUntilStarted(4)
        // Three choice targets are loading and held at the gate; no fourth load has started.
        #expect(await source.running == 3)
        #expect(await source.waitingPaths.allSatisfy { $0.hasPrefix("beats/b") })
        await source.openAll()
        await content.settlePreloads()
        #expect(await source.maximumRunning == 3)
        let started = await source.started
        #expect(started.first == "beats/a.json")
        // Every beat one step ahead started before any beat two steps ahead.
        let lastB = started.lastIndex { $0.hasPrefix("beats/b") } ?? -1
        let firstC = started.firstIndex { $0.hasPrefix("beats/c") } ?? Int.max
        #expect(lastB < firstC)
        #expect(Set(started) == Set(Self.fanOut().keys).subtracting(["beats/z.json", "beats/y.json"]))
    }

    @Test func theNextPagesBeatIsLoadedFirstOnALinearStory() async {
        let chain = ["a", "b", "c", "d"]
        var files: [String: String] = [:]
        for (i, id) in chain.enumerated() { files["beats/\(id).json"] = beatJSON(id, next: i + 1 < chain.count ? chain[i + 1] : nil) }
        let source = GatedSource(files: files)
        let content = manager(source)
        await source.openAll()
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "p"))
        await content.settlePreloads()
        #expect(await source.started == ["beats/a.json", "beats/b.json", "beats/c.json", "beats/d.json"])
    }

    @Test func movingElsewhereCancelsTheOldWindowsRemainingLoads() async {
        let source = GatedSource(files: Self.fanOut())
        let content = manager(source)
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "q"))
        await source.waitUntilStarted(1)
        await source.release("beats/a.json")
        await source.waitUntilStarted(4)  // b1..b3 are loading
        await content.readerMoved(to: StoryLocation(beatId: "z", pageId: "p"))
        await source.openAll()
        await content.settlePreloads()  // waits for the cancelled window's work too
        let started = Set(await source.started)
        #expect(started.contains("beats/z.json") && started.contains("beats/y.json"))
        // Two of a's five choice targets were still waiting to start: they never did, nor any beat after them.
        #expect(started.filter { $0.hasPrefix("beats/b") }.count == 3)
        #expect(!started.contains { $0.hasPrefix("beats/c") })
        #expect(await content.preloadWindow == ["z", "y", "a"])
    }

    @Test func theWindowFollowsTheReaderAndKeepsBeatsBehind() async {
        let chain = (0..<10).map { "n\($0)" }
        var files: [String: String] = [:]
        for (i, id) in chain.enumerated() { files["beats/\(id).json"] = beatJSON(id, next: i + 1 < chain.count ? chain[i + 1] : nil) }
        let source = GatedSource(files: files)
        await source.openAll()
        let content = manager(source, policy: PreloadPolicy(behind: 2, ahead: 3))
        var expected: [[String]] = []
        var seen: [[String]] = []
        for i in 0..<5 {
            await content.readerMoved(to: StoryLocation(beatId: chain[i], pageId: "p"))
            await content.settlePreloads()
            seen.append(await content.preloadWindow)
            let ahead = Array(chain[(i + 1)..<min(chain.count, i + 4)])
            let behind = Array(chain[max(0, i - 2)..<i].reversed())
            expected.append([chain[i]] + ahead + behind)
        }
        #expect(seen == expected)
    }

    @Test func assetsArePreloadedCriticalThenImportantThenOptional() async {
        // One page with a page image (important by default), a page_enter sound (critical by default),
        // a tap sound overridden to optional, and a choice page with a choice image (critical) and a
        // choice sound (important); the page image of the next beat is overridden to critical.
        let first = """
        {"id":"a","pages":[
          {"id":"p","type":"text","lines":["x"],"imageUrl":"assets/page.png","tools":[
            {"name":"sound_effect","args":{"sound_url":"assets/enter.wav","trigger":"page_enter"}},
            {"name":"sound_effect","args":{"sound_url":"assets/tap.wav","trigger":"tap"}}]},
          {"id":"q","type":"choice","imageUrl":"assets/choice.png",
           "choices":[{"text":"on","targetBeatId":"b","sound_url":"assets/pick.wav"}]}]}
        """
        let second = """
        {"id":"b","pages":[{"id":"p","type":"text","lines":["y"],"imageUrl":"assets/far.png"}]}
        """
        var files = ["beats/a.json": first, "beats/b.json": second]
        for asset in ["page.png", "enter.wav", "tap.wav", "choice.png", "pick.wav", "far.png"] { files["assets/\(asset)"] = asset }
        let source = GatedSource(files: files)
        let manifest = StoryManifest(id: "s", title: "S", startBeatId: "a",
                                     criticality: [path("assets/tap.wav"): .optional, path("assets/far.png"): .critical])
        let content = manager(source, manifest: manifest, sound: SoundRecording(plays: false).client, assetLoads: 1)
        let events = content.loadingEvents()
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "p"))
        await source.waitUntilStarted(1)
        await source.release("beats/a.json")
        // a's first asset does not wait for b: both are fetched side by side.
        await source.waitUntilStarted(3)
        #expect(await source.waitingPaths == ["beats/b.json", "assets/enter.wav"])
        await source.release("beats/b.json")
        var window: [String] = []
        for await event in events {  // the window's own event, no poll (a window of a alone may come first)
            if case .preloadWindowChanged(let ids) = event { window = ids }
            if window == ["a", "b"] { break }
        }
        #expect(window == ["a", "b"])
        await source.openAll()
        await content.settlePreloads()
        let assets = await source.started.filter { $0.hasPrefix("assets/") }
        #expect(assets == ["assets/enter.wav", "assets/choice.png", "assets/far.png", "assets/page.png", "assets/pick.wav", "assets/tap.wav"])
        #expect(content.resident.image(path("assets/far.png")) != nil)
        #expect(content.resident.sound(path("assets/tap.wav")) != nil)
    }

    @Test func aRunTimeCriticalityOverrideChangesThePreloadOrder() async {
        let beatA = """
        {"id":"a","pages":[{"id":"p","type":"text","lines":["x"],"imageUrl":"assets/one.png"},
                           {"id":"r","type":"text","lines":["x"],"imageUrl":"assets/two.png"}]}
        """
        let source = GatedSource(files: ["beats/a.json": beatA, "assets/one.png": "1", "assets/two.png": "2"])
        await source.openAll()
        // One asset load at a time: the order they start in is the preload order (two lanes raced: 1 run in 15).
        let content = manager(source, assetLoads: 1)
        await content.setCriticality(.critical, for: path("assets/two.png"))
        await content.readerMoved(to: StoryLocation(beatId: "a", pageId: "p"))
        await content.settlePreloads()
        let started = await source.started.filter { $0.hasPrefix("assets/") }
        #expect(started == ["assets/two.png", "assets/one.png"])
    }

    @Test func windowOrderPutsAssetsOfNearerBeatsFirstWithinALevel() throws {
        let near = Beat(id: "near", pages: [Page(id: "p", kind: .text(lines: ["x"]), imageUrl: path("n.png"))])
        let far = Beat(id: "far", pages: [Page(id: "p", kind: .text(lines: ["x"]), imageUrl: path("f.png")),
                                          Page(id: "q", kind: .text(lines: ["x"]), imageUrl: path("n.png"))])
        let order = AssetPreloadOrder.references(of: [near, far]) { _ in .important }
        #expect(order.map(\.path.value) == ["n.png", "f.png"])  // each asset once, nearest first
    }
}
