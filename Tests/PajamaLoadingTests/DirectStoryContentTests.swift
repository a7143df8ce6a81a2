import Foundation
import PajamaInkBridge
import PajamaLoading
import PajamaModel
import PajamaTestSupport
import Testing

/// `DirectStoryContent` (`pajama play`'s content of a local story) answers as the loading engine's content does:
/// the same beats, the same errors in the same words, the gate on critical pictures, what it keeps; and it asks
/// not to be told of the reader's moves.
@Suite struct DirectStoryContentTests {
    static let decode: StoryContentManager.ImageDecoding = { path, bytes throws(AssetLoadError) in
        guard bytes.first != 0 else { throw AssetLoadError(.invalidFormat, subject: path.value, detail: "not a picture") }
        return .textArt(lines: [String(decoding: bytes, as: UTF8.self)])
    }

    /// Both contents of a package in `folder`.
    func both(_ folder: String) async throws -> (direct: DirectStoryContent, engine: StoryContentManager) {
        let direct = try await DirectStoryContent.open(source: FolderStorySource(folder: folder), decodeImage: Self.decode)
        let engine = try await StoryContentManager.open(source: FolderStorySource(folder: folder), diskCache: nil, decodeImage: Self.decode,
                                                        sound: nil, preloading: false)
        return (direct, engine)
    }

    /// The words of the error `load` throws, or nil when it throws none.
    func failure<T>(_ load: () async throws(AssetLoadError) -> T) async -> String? {
        do {
            _ = try await load()
            return nil
        } catch {
            return "\(error) \(error.kind)"
        }
    }

    @Test func aPackagesBeatsAndErrorsAreTheEnginesOwn() async throws {
        let atlas = PackagePaths.stories.appendingPathComponent("clockwork-atlas").path
        let (direct, engine) = try await both(atlas)
        #expect(direct.manifest == engine.manifest)
        #expect(!direct.followsReader && engine.followsReader)
        let start = direct.manifest.startBeatId
        #expect(direct.resident.beat(start) == nil)
        #expect(try await direct.loadBeat(start) == (try await engine.loadBeat(start)))
        #expect(direct.resident.beat(start) != nil)
        for id in ["no_such_beat", "../story", "a b"] {
            let ours = await failure { () async throws(AssetLoadError) in try await direct.loadBeat(id) }
            #expect(ours != nil)
            #expect(ours == (await failure { () async throws(AssetLoadError) in try await engine.loadBeat(id) }), "\(id)")
        }
        let missing = try AssetPath(validating: "assets/images/none.png")
        let ours = await failure { () async throws(AssetLoadError) in try await direct.loadImage(missing) }
        #expect(ours?.contains("notFound") == true)
        #expect(ours == (await failure { () async throws(AssetLoadError) in try await engine.loadImage(missing) }))
        #expect(await failure { () async throws(AssetLoadError) in try await direct.loadSound(missing) }
            == (await failure { () async throws(AssetLoadError) in try await engine.loadSound(missing) }))
    }

    @Test func aBrokenBeatFileAndAPictureThatCannotBeDecodedFailAsInTheEngine() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-direct-broken")
        defer { home.remove() }
        _ = try home.write("story/story.json", #"{"format": 1, "id": "b", "title": "B", "startBeatId": "start", "assets": {"criticality": {"images/p.txt": "critical"}}}"#)
        _ = try home.write("story/beats/start.json", #"{"id": "start", "pages": [{"id": "p", "type": "text", "lines": ["One."], "imageUrl": "images/p.txt"}], "nextBeatId": "broken"}"#)
        _ = try home.write("story/beats/broken.json", #"{"id": "broken", "pages": []"#)
        _ = try home.write("story/images/p.txt", "\u{0}\u{1}")
        let (direct, engine) = try await both(home.path + "/story")
        let broken = await failure { () async throws(AssetLoadError) in try await direct.loadBeat("broken") }
        #expect(broken?.contains("invalidFormat") == true)
        #expect(broken == (await failure { () async throws(AssetLoadError) in try await engine.loadBeat("broken") }))
        let beat = try await direct.loadBeat("start")
        let location = StoryLocation(beatId: "start", pageId: "p")
        #expect(!direct.resident.criticalAssetsLoaded(for: location, in: beat))
        let gate = await failure { () async throws(AssetLoadError) in try await direct.loadCriticalAssets(for: location, in: beat) }
        #expect(gate?.contains("not a picture") == true)
        #expect(gate == (await failure { () async throws(AssetLoadError) in try await engine.loadCriticalAssets(for: location, in: beat) }))
        try Data("art".utf8).write(to: home.url.appendingPathComponent("story/images/p.txt"))
        try await direct.loadCriticalAssets(for: location, in: beat)
        #expect(direct.resident.criticalAssetsLoaded(for: location, in: beat))
        #expect(direct.resident.image(try AssetPath(validating: "images/p.txt")) == .textArt(lines: ["art"]))
    }

    @Test func anInkStorysBeatsComeFromARuntimeOfItsOwnAsTheSourcesDo() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-direct-ink")
        defer { home.remove() }
        _ = try home.write("loop.ink.json", InkStoryFixtures.randomLoop)
        let source = InkStorySource(base: FolderStorySource(folder: home.path), file: "loop.ink.json", seed: 7)
        let direct = try await DirectStoryContent.open(source: source, decodeImage: Self.decode)
        #expect(direct.manifest == (try StoryDecoder.decodeManifest(try await source.read("story.json"))))
        var id = direct.manifest.startBeatId
        for _ in 0..<20 {
            let ours = try await direct.loadBeat(id)
            let theirs = try #require(try await source.madeBeat(id))
            #expect(ours == theirs)
            guard case .choice(_, let choices) = ours.pages.last?.kind, let next = choices.first?.targetBeatId else {
                Issue.record("no choice in \(ours.id)")
                return
            }
            id = next
        }
        let unknown = await failure { () async throws(AssetLoadError) in try await direct.loadBeat("i-0000000000000000") }
        #expect(unknown?.contains("notFound") == true)
    }
}
