import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaChoiceScript
import PajamaLoading
import PajamaModel
import PajamaStoryFormat

/// A ChoiceScript game read as a story package: a `StorySource` whose `story.json` and `beats/<id>.json`
/// are made from the game's scenes as they are asked for (`ChoiceScriptBeatMaker`: a stop of the interpreter
/// is a beat), and whose other files (pictures, sounds) come from `base`, the game's folder or base URL
/// (docs/choicescript.md). The same shape as the Twine bridge's source.
///
/// The scenes are read once, on the first request (a failed read is tried again by the next one): `files`,
/// and then every scene they name (`*goto_scene`, `*gosub_scene`, `*scene_list`) that `files` lacks, from the
/// same folder (a game at a URL is given its startup.txt alone).
public actor ChoiceScriptStorySource: OwnRuntimeSource, StoryPartsSource {
    public nonisolated let base: any StorySource
    public nonisolated let files: [String]
    public nonisolated var storyFiles: [String] { files }
    public nonisolated var formatName: String { ChoiceScriptFormat().name }
    public nonisolated var location: String { base.location }
    public nonisolated var isLocal: Bool { base.isLocal }
    public nonisolated var name: String { ChoiceScriptFiles.name(location: base.location) }
    private let requestedSeed: Int?
    private let prefetched: [UInt8]?

    private enum State {
        case idle
        case reading(Task<Result<[String: String], StorySourceError>, Never>)
        case ready(ChoiceScriptBeatMaker, manifest: [UInt8])
    }

    private var state = State.idle

    /// `seed` fixes `*rand` and `*goto_random_scene` (a random one otherwise; a resumed reading uses its saved seed).
    public init(base: any StorySource, files: [String], seed: Int? = nil, prefetched: [UInt8]? = nil) {
        self.base = base
        self.files = files
        self.requestedSeed = seed
        self.prefetched = prefetched
    }

    /// A game on disk (`ChoiceScriptFiles.files(at:)`), or nil when `path` names none.
    public static func local(_ path: String, seed: Int? = nil) -> ChoiceScriptStorySource? {
        ChoiceScriptFiles.files(at: path).map { ChoiceScriptStorySource(base: FolderStorySource(folder: $0.folder), files: $0.files, seed: seed) }
    }

    /// The story.json a game on disk reads as (for the library), without keeping the game.
    public static func manifest(folder: String, files: [String]) throws(StorySourceError) -> StoryManifest {
        let base = FolderStorySource(folder: folder)
        var texts: [String: String] = [:]
        for file in files { texts[ChoiceScriptFiles.sceneName(file)] = String(decoding: try base.readSync(file), as: UTF8.self) }
        let (_, manifest) = try load(texts, name: ChoiceScriptFiles.name(location: folder), seed: 0)
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
            return .failed("cannot read the game's scenes again to resume: \(error.reason)")
        }
    }

    /// A runtime of its own for one reading, from the game's scenes (read again) with the source's seed
    /// (`OwnRuntimeSource`).
    public func ownRuntime() async throws(StorySourceError) -> sending OwnedRuntime {
        let texts = try await Self.readScenes(base: base, files: files, prefetched: prefetched)
        let (maker, manifest) = try Self.load(texts, name: name, seed: requestedSeed ?? Int.random(in: 0..<100))
        return OwnedRuntime(manifest: manifest, makeBeat: { id, path throws(StorySourceError) in
            guard let beat = maker.beat(id) else { throw .notFound(path: path) }
            return beat
        }, restore: { maker.restore($0) })
    }

    public func validateItself(probe: any AssetProbe) async -> ValidationReport? {
        await ChoiceScriptValidator.validate(self, probe: probe)
    }

    // MARK: StoryPartsSource

    public nonisolated var partsName: String { "lines" }

    public func allParts() async -> [String] {
        (try? await ready().maker.countedLines) ?? []
    }

    public func partsReached(by beat: Beat) async -> [String] {
        (try? await ready().maker.linesReached(by: beat.id)) ?? []
    }

    public func neverOffered(reached: Set<String>, weighed: Set<String>) async -> [NeverOfferedChoice]? {
        guard let maker = try? await ready().maker else { return nil }
        return maker.game.neverOffered(reached: reached).map { NeverOfferedChoice(choice: $0.text, part: $0.line.name, reason: $0.reason) }
    }

    /// The game's scene texts by name (what `validate` checks).
    func sceneTexts() async throws(StorySourceError) -> [String: String] {
        try await Self.readScenes(base: base, files: files, prefetched: prefetched)
    }

    // MARK: Reading the game

    private func ready() async throws(StorySourceError) -> (maker: ChoiceScriptBeatMaker, manifest: [UInt8]) {
        let task: Task<Result<[String: String], StorySourceError>, Never>
        switch state {
        case .ready(let maker, let manifest): return (maker, manifest)
        case .reading(let running): task = running
        case .idle:
            let base = self.base
            let files = self.files
            let prefetched = self.prefetched
            task = Task { () -> Result<[String: String], StorySourceError> in
                do throws(StorySourceError) {
                    return .success(try await Self.readScenes(base: base, files: files, prefetched: prefetched))
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
        case .success(let texts):
            do throws(StorySourceError) {
                let (maker, manifest) = try Self.load(texts, name: name, seed: requestedSeed ?? Int.random(in: 0..<100))
                state = .ready(maker, manifest: manifest)
                return (maker, manifest)
            } catch {
                state = .idle
                throw error
            }
        }
    }

    /// `files`, then the scenes they name that are not among them (from the same folder; one that is not there
    /// is left out: reaching it stops the game with a message).
    static func readScenes(base: any StorySource, files: [String], prefetched: [UInt8]?) async throws(StorySourceError) -> [String: String] {
        var texts: [String: String] = [:]
        for (index, file) in files.enumerated() {
            let bytes = index == 0 && prefetched != nil ? prefetched! : try await base.read(file)
            texts[ChoiceScriptFiles.sceneName(file)] = String(decoding: bytes, as: UTF8.self)
        }
        let prefix = ChoiceScriptFiles.scenePrefix(files)
        var wanted = texts.values.flatMap(ChoiceScriptScan.namedScenes(in:)) + ["choicescript_stats"]
        var tried = Set(texts.keys.map { $0.lowercased() })
        while let next = wanted.popLast() {
            guard !tried.contains(next.lowercased()) else { continue }
            tried.insert(next.lowercased())
            guard (try? AssetPath(validating: prefix + next + ".txt")) != nil else { continue }
            do {
                let text = String(decoding: try await base.read(prefix + next + ".txt"), as: UTF8.self)
                texts[next] = text
                wanted += ChoiceScriptScan.namedScenes(in: text)
            } catch {
                if case .notFound = error { continue }
                throw error
            }
        }
        return texts
    }

    static func load(_ texts: [String: String], name: String, seed: Int) throws(StorySourceError) -> (ChoiceScriptBeatMaker, [UInt8]) {
        guard texts["startup"] != nil else {
            throw .notAStory(path: "startup.txt", reason: "the game has no startup.txt (its first scene)")
        }
        let game = CSGame(sceneTexts: texts)
        var hash = FNV1a.hash("")
        for key in texts.keys.sorted() { hash = FNV1a.hash("\(hash):\(key):\(FNV1a.hash(texts[key]!))") }
        let version = "choicescript-" + String(hash, radix: 16)
        let title = (game.title?.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 } ?? name
        let maker = ChoiceScriptBeatMaker(game: game, title: title, version: version, seed: seed)
        let author = game.author?.trimmingWhitespace
        let manifest = StoryManifest(
            id: StoryManifest.id(fromName: name, otherwise: "choicescript"), title: String(title.prefix(500)),
            author: author?.isEmpty == false ? String(author!.prefix(500)) : nil, version: version,
            startBeatId: ChoiceScriptBeatMaker.startBeatId, criticality: [:], defaultCriticality: .important)
        return (maker, StoryEncoder.encode(manifest))
    }
}

extension ChoiceScriptStorySource: StatusPageSource {
    /// "Stats" for a game with a `choicescript_stats.txt` (ChoiceScript's Show Stats), nil otherwise.
    public func statusPageTitle() async -> String? {
        guard let maker = try? await ready().maker, maker.game.scene(named: CSRuntime.statsScene) != nil else { return nil }
        return ChoiceScriptStatus.title
    }

    public func statusPage(at beatId: String) async -> StatusPage? {
        try? await ready().maker.statusPage(at: beatId)
    }
}
