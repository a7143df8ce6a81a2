import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStoryFormat
import PajamaSugarCube
import PajamaTwine
import PajamaTwineBridge

/// A SugarCube story (Twee 3 source or published HTML) read as a story package: a `StorySource` whose
/// `story.json` and `beats/<id>.json` are made from the story as they are asked for (`SugarCubeBeatMaker`),
/// and whose pictures and sounds come from `base`, the folder or base URL the story's file is in
/// (docs/sugarcube.md). The same shape as the Twine bridge's source.
///
/// The files are read once, on the first request (a failed read is tried again by the next one).
public actor SugarCubeStorySource: BeatMakingSource, StoryPartsSource {
    public nonisolated let base: any StorySource
    public nonisolated let files: [String]
    public nonisolated var storyFiles: [String] { files }
    public nonisolated var formatName: String { SugarCubeFormat().name }
    public nonisolated var location: String {
        let file = files.count == 1 ? files[0] : ""
        return base.location.hasSuffix("/") ? base.location + file : base.location + "/" + file
    }
    public nonisolated var isLocal: Bool { base.isLocal }
    public nonisolated var name: String { TwineFiles.name(files: files, location: base.location) }
    private let requestedSeed: Int?
    private let prefetched: [UInt8]?

    private enum State {
        case idle
        case reading(Task<Result<[UInt8], StorySourceError>, Never>)
        case ready(SugarCubeBeatMaker, manifest: [UInt8])
    }

    private var state = State.idle

    /// `seed` fixes the random seed of `either()`, `random()` and `Math.random` (a random one otherwise; a
    /// resumed reading uses its saved seed). `prefetched`: the one file's bytes, read already.
    public init(base: any StorySource, files: [String], seed: Int? = nil, prefetched: [UInt8]? = nil) {
        self.base = base
        self.files = files
        self.requestedSeed = seed
        self.prefetched = prefetched.map { $0 + [0x0A] }
    }

    /// A SugarCube story on disk, or nil when `path` names none.
    public static func local(_ path: String, seed: Int? = nil) -> SugarCubeStorySource? {
        SugarCubeFormat().find(at: path).map { SugarCubeStorySource(base: FolderStorySource(folder: $0.folder), files: $0.files, seed: seed) }
    }

    /// The story.json a SugarCube story on disk reads as (for the library), without playing it.
    public static func manifest(folder: String, files: [String]) throws(StorySourceError) -> StoryManifest {
        let base = FolderStorySource(folder: folder)
        var bytes: [UInt8] = []
        for file in files { bytes += try base.readSync(file) + [0x0A] }
        let story = try parse(bytes, files: files)
        let manifest = makeManifest(story, bytes: bytes, name: TwineFiles.name(files: files, location: base.location))
        do {
            return try StoryDecoder.decodeManifest(manifest)
        } catch {
            throw .notAStory(path: files.first ?? "", reason: error.description)
        }
    }

    // MARK: StorySource

    public func madeManifest() async throws(StorySourceError) -> [UInt8] {
        try await ready().manifest
    }

    public func makeBeat(_ id: String, path: String) async throws(StorySourceError) -> Beat {
        let maker = try await ready().maker
        guard let beat = maker.beat(id) else { throw .notFound(path: path) }
        return beat
    }

    public func restore(_ origin: BeatOrigin) async -> OriginRestore {
        do throws(StorySourceError) {
            return try await ready().maker.restore(origin)
        } catch {
            return .failed("cannot read \(files.joined(separator: ", ")) again to resume: \(error.reason)")
        }
    }

    public func validateItself(probe: any AssetProbe) async -> ValidationReport? {
        await SugarCubeValidator.validate(self, probe: probe)
    }

    // MARK: StoryPartsSource

    public nonisolated var partsName: String { "passages" }

    public func allParts() async -> [String] {
        (try? await ready().maker.readablePassages) ?? []
    }

    public func partsReached(by beat: Beat) async -> [String] {
        (try? await ready().maker.passagesOfBeat[beat.id]).flatMap { $0 } ?? []
    }

    public func choicesWeighed(by beat: Beat) async -> [String] {
        let links = (try? await ready().maker.linksOfBeat[beat.id]).flatMap { $0 } ?? []
        return links.map { WeighedLink.note(passage: $0.passage, text: $0.text, target: $0.target, keptBack: $0.keptBack) }
    }

    public func neverOffered(reached: Set<String>, weighed: Set<String>) async -> [NeverOfferedChoice]? {
        WeighedLink.neverOffered(weighed)
    }

    /// The files' bytes, one after another.
    func bytes() async throws(StorySourceError) -> [UInt8] {
        var bytes: [UInt8] = []
        for file in files { bytes += try await base.read(file) + [0x0A] }
        return bytes
    }

    // MARK: Reading the story

    private func ready() async throws(StorySourceError) -> (maker: SugarCubeBeatMaker, manifest: [UInt8]) {
        let task: Task<Result<[UInt8], StorySourceError>, Never>
        switch state {
        case .ready(let maker, let manifest): return (maker, manifest)
        case .reading(let running): task = running
        case .idle:
            let base = self.base
            let files = self.files
            let prefetched = self.prefetched
            task = Task { () -> Result<[UInt8], StorySourceError> in
                if let prefetched { return .success(prefetched) }
                var bytes: [UInt8] = []
                do throws(StorySourceError) {
                    for file in files { bytes += try await base.read(file) + [0x0A] }
                    return .success(bytes)
                } catch {
                    return .failure(error)
                }
            }
            state = .reading(task)
        }
        let result = await task.value
        if case .ready(let maker, let manifest) = state { return (maker, manifest) }
        switch result {
        case .failure(let error):
            state = .idle
            throw error
        case .success(let bytes):
            do throws(StorySourceError) {
                let (maker, manifest) = try Self.load(bytes, files: files, name: name, seed: requestedSeed ?? Int.random(in: 0..<100))
                state = .ready(maker, manifest: manifest)
                return (maker, manifest)
            } catch {
                state = .idle
                throw error
            }
        }
    }

    static func parse(_ bytes: [UInt8], files: [String]) throws(StorySourceError) -> TwineStory {
        let file = files.joined(separator: ", ")
        do {
            return try TwineFileKind.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .notAStory(path: file, reason: "\(file) is not a Twine story this reader can read: \(error.message)")
        }
    }

    static func makeManifest(_ story: TwineStory, bytes: [UInt8], name: String) -> [UInt8] {
        let title = story.title.trimmingWhitespace
        let manifest = StoryManifest(
            id: StoryManifest.id(fromName: name, otherwise: "sugarcube"), title: String((title.isEmpty ? name : title).prefix(500)), author: nil,
            version: version(bytes), startBeatId: SugarCubeBeatMaker.startBeatId, criticality: [:], defaultCriticality: .important)
        return StoryEncoder.encode(manifest)
    }

    static func version(_ bytes: [UInt8]) -> String { "sugarcube-" + String(FNV1a.hash(bytes), radix: 16) }

    /// Parses the story and starts its engine (the Story JavaScript runs once here).
    static func load(_ bytes: [UInt8], files: [String], name: String, seed: Int) throws(StorySourceError) -> (SugarCubeBeatMaker, [UInt8]) {
        let story = try parse(bytes, files: files)
        let title = story.title.trimmingWhitespace
        let maker = SugarCubeBeatMaker(story: story, file: files.joined(separator: ", "), title: title.isEmpty ? name : title, version: version(bytes), seed: seed)
        return (maker, makeManifest(story, bytes: bytes, name: name))
    }
}

extension SugarCubeStorySource: StatusPageSource {
    /// "Caption" for a story with a StoryCaption or StoryBanner (SugarCube's UI bar), nil otherwise.
    public func statusPageTitle() async -> String? {
        try? await ready().maker.captionTitle
    }

    public func statusPage(at beatId: String) async -> StatusPage? {
        try? await ready().maker.statusPage(at: beatId)
    }
}
