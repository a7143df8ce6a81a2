import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaPaging
import PajamaStoryFormat
import PajamaInk
import PajamaJSON

/// An ink story (`story.ink.json`) read as a story package: a `StorySource` whose `story.json` and
/// `beats/<id>.json` are made from the compiled ink as they are asked for (`InkBeatMaker`), and whose other
/// files (pictures and sounds named by tags) come from `base`, the folder or base URL the ink file is in.
/// The loading engine (caches, preloading, gating), the reader, progress and `pajama play` then work on it
/// as on any package (docs/ink.md, "Reading ink stories").
///
/// The ink file is read once, on the first request (a failed read is tried again by the next one).
public actor InkStorySource: OwnRuntimeSource, StoryPartsSource {
    /// Where the ink file and its assets are.
    public nonisolated let base: any StorySource
    /// The ink file's name in `base`.
    public nonisolated let file: String
    public nonisolated var storyFiles: [String] { [file] }
    public nonisolated var formatName: String { InkFormat().name }
    public nonisolated var location: String { base.location.hasSuffix("/") ? base.location + file : base.location + "/" + file }
    public nonisolated var isLocal: Bool { base.isLocal }
    private let requestedSeed: Int?
    /// The ink file's bytes when the opener already read them (to know the file by its content).
    private var prefetched: [UInt8]?

    private enum State {
        case idle
        case reading(Task<Result<(bytes: [UInt8], pageTitle: String?), StorySourceError>, Never>)
        case ready(InkBeatMaker, manifest: [UInt8])
    }

    private var state = State.idle

    /// `seed` fixes ink's random seed (a random one, 0-99 as in ink, otherwise; a resumed reading uses
    /// its saved seed).
    /// `prefetched`: the ink file's bytes when they were read already (they are used instead of a second read).
    public init(base: any StorySource, file: String, seed: Int? = nil, prefetched: [UInt8]? = nil) {
        self.base = base
        self.file = file
        self.requestedSeed = seed
        self.prefetched = prefetched
    }

    /// True for a file name that is ink by its name alone (`*.ink.json`, inklecate's own).
    public static func isInkFile(_ name: String) -> Bool { name.lowercased().hasSuffix(".ink.json") }

    /// The folder and name of the compiled ink story a local `path` names, known by its content
    /// (`InkFileFormat`): the file itself; or in a folder, its `story.json` when that is ink (a package's is
    /// not), else the one ink file among its `.json` and `.js` files (one `*.ink.json`, else `story.json` or
    /// `story.js`, else the only one). nil for a story package, an ambiguous folder or nothing.
    public static func inkFile(at path: String) -> (folder: String, file: String)? {
        let url = URL(fileURLWithPath: path)
        var isFolder = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if !isFolder {
            guard hasInkContent(url.path) else { return nil }
            return (url.deletingLastPathComponent().path, url.lastPathComponent)
        }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("story.json").path) {
            return hasInkContent(url.appendingPathComponent("story.json").path) ? (url.path, "story.json") : nil
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return nil }
        let candidates = names.filter { name in
            let lower = name.lowercased()
            return !name.hasPrefix(".") && (lower.hasSuffix(".json") || lower.hasSuffix(".js"))
        }
        let inks = candidates.sorted().filter { hasInkContent(url.appendingPathComponent($0).path) }
        return pick(inks).map { (url.path, $0) }
    }

    /// The one of several ink files in a folder that is its story, nil when no rule decides.
    static func pick(_ inks: [String]) -> String? {
        let byName = inks.filter(isInkFile)
        if byName.count == 1 { return byName[0] }
        if let usual = InkFileFormat.usualNames.first(where: inks.contains) { return usual }
        return inks.count == 1 ? inks[0] : nil
    }

    /// Whether the file at `path` is a compiled ink story (its first bytes are read first, so most other
    /// files are passed over at once).
    static func hasInkContent(_ path: String) -> Bool {
        guard case .bytes(let head) = RegularFile.head(path, count: 64), InkFileFormat.mayBeInk(head: head),
            case .bytes(let whole) = RegularFile.read(path, limit: maximumFileSize)
        else { return false }
        return InkFileFormat.json(in: whole) != nil
    }

    /// The largest ink file read (as any file of a story folder).
    static let maximumFileSize = 16 * 1024 * 1024

    /// The name the story is known by: its id (`storyId`) and its title when no `# title:` tag gives one.
    /// The file name without `.ink.json`, `.json` or `.js`, or, for a usual name that says nothing of the
    /// story (`story.json`, `main.json`, `game.json`, `story.js`...), the name of its folder (or URL path).
    /// A `*.ink.json` keeps its stem (`story.ink.json` is `story`), as it always has: saved progress is kept
    /// under the id.
    public nonisolated var name: String { Self.name(file: file, location: base.location) }

    static func name(file: String, location: String) -> String {
        let stem = InkBeatMaker.stem(of: file)
        guard !isInkFile(file), ["story", "main", "game", "index", "ink", "script", "content", "storycontent"].contains(stem.lowercased()) else { return stem }
        var trimmed = Substring(location)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let folder = trimmed.split(separator: "/").last.map(String.init) ?? ""
        return folder.isEmpty || folder.contains(":") ? stem : (folder.percentDecoded ?? folder)
    }

    /// An ink story on disk (`inkFile(at:)`), or nil when `path` names none.
    public static func local(_ path: String, seed: Int? = nil) -> InkStorySource? {
        inkFile(at: path).map { InkStorySource(base: FolderStorySource(folder: $0.folder), file: $0.file, seed: seed) }
    }

    /// The story.json an ink file on disk reads as (for the library), without keeping the story.
    public static func manifest(folder: String, file: String) throws(StorySourceError) -> StoryManifest {
        let base = FolderStorySource(folder: folder)
        let bytes = try base.readSync(file)
        let page = InkWebPage.isBeside(file) ? try? base.readSync(InkWebPage.file) : nil
        let pageTitle = page.flatMap { InkWebPage.title(in: $0, stem: InkBeatMaker.stem(of: file)) }
        let (_, manifest) = try load(bytes, file: file, name: name(file: file, location: base.location), pageTitle: pageTitle, seed: 0)
        do {
            return try StoryDecoder.decodeManifest(manifest)
        } catch {
            throw .notAStory(path: file, reason: error.description)
        }
    }

    // MARK: StorySource

    public func madeManifest() async throws(StorySourceError) -> [UInt8] {
        try await ready().manifest
    }

    public func makeBeat(_ id: String, path: String) async throws(StorySourceError) -> Beat {
        try Self.beat(id, path: path, of: try await ready().maker)
    }

    /// The beat `id` of `maker`'s story, its problem as the source's error.
    static func beat(_ id: String, path: String, of maker: InkBeatMaker) throws(StorySourceError) -> Beat {
        do throws(InkBeatMaker.Problem) {
            return try maker.beat(id)
        } catch {
            throw sourceError(error, path: path, file: maker.file)
        }
    }

    /// A runtime of its own for one reading, from the ink file (read again unless the opener's bytes are still
    /// here) with the source's seed (`OwnRuntimeSource`).
    public func ownRuntime() async throws(StorySourceError) -> sending OwnedRuntime {
        let read = try await Self.readStory(base: base, file: file, prefetched: prefetched).get()
        let (maker, manifest) = try Self.load(read.bytes, file: file, name: name, pageTitle: read.pageTitle,
                                              seed: requestedSeed ?? Int.random(in: 0..<100))
        return OwnedRuntime(manifest: manifest, makeBeat: { id, path throws(StorySourceError) in try Self.beat(id, path: path, of: maker) },
                            restore: { maker.restore($0) })
    }

    public func validateItself(probe: any AssetProbe) async -> ValidationReport? {
        await InkValidator.validate(self, probe: probe)
    }

    public func restore(_ origin: BeatOrigin) async -> OriginRestore {
        do throws(StorySourceError) {
            return try await ready().maker.restore(origin)
        } catch {
            return .failed("cannot read \(file) again to resume: \(error.reason)")
        }
    }

    // MARK: StoryPartsSource

    public nonisolated var partsName: String { "knots and stitches" }

    public func allParts() async -> [String] {
        (try? await ready().maker.allParts) ?? []
    }

    public func partsReached(by beat: Beat) async -> [String] {
        (try? await ready().maker.partsOfBeat[beat.id]).flatMap { $0 } ?? []
    }

    public func choicesWeighed(by beat: Beat) async -> [String] {
        let weighed = (try? await ready().maker.choicesOfBeat[beat.id]).flatMap { $0 } ?? []
        return weighed.map(InkNeverOffered.note)
    }

    public func neverOffered(reached: Set<String>, weighed: Set<String>) async -> [NeverOfferedChoice]? {
        InkNeverOffered.choices(weighed: weighed)
    }

    // MARK: Reading the ink file

    /// The maker (and story.json), reading and loading the ink file the first time.
    private func ready() async throws(StorySourceError) -> (maker: InkBeatMaker, manifest: [UInt8]) {
        let task: Task<Result<(bytes: [UInt8], pageTitle: String?), StorySourceError>, Never>
        switch state {
        case .ready(let maker, let manifest): return (maker, manifest)
        case .reading(let running): task = running
        case .idle:
            let base = self.base
            let file = self.file
            let prefetched = self.prefetched
            self.prefetched = nil
            task = Task { await Self.readStory(base: base, file: file, prefetched: prefetched) }
            state = .reading(task)
        }
        let result = await task.value
        if case .ready(let maker, let manifest) = state { return (maker, manifest) }  // another caller finished first
        switch result {
        case .failure(let error):
            state = .idle
            throw error
        case .success(let read):
            do throws(StorySourceError) {
                let (maker, manifest) = try Self.load(
                    read.bytes, file: file, name: name, pageTitle: read.pageTitle, seed: requestedSeed ?? Int.random(in: 0..<100))
                state = .ready(maker, manifest: manifest)
                return (maker, manifest)
            } catch {
                state = .idle
                throw error
            }
        }
    }

    /// The ink file's bytes (`prefetched` when the opener read them) and its web page's title.
    static func readStory(base: any StorySource, file: String, prefetched: [UInt8]?) async
        -> Result<(bytes: [UInt8], pageTitle: String?), StorySourceError>
    {
        async let pageTitle = webPageTitle(base: base, file: file)
        if let prefetched { return .success((prefetched, await pageTitle)) }
        do throws(StorySourceError) {
            let bytes = try await base.read(file)
            return .success((bytes, await pageTitle))
        } catch {
            return .failure(error)
        }
    }

    /// The title in the `<title>` of Inky's web export beside a `.js` ink file (`InkWebPage`), nil when there
    /// is no page, it cannot be read, or its title says nothing of the story. Only a web export's `.js` has
    /// one: other ink files are not looked beside (no request for a page that is not there).
    static func webPageTitle(base: any StorySource, file: String) async -> String? {
        guard InkWebPage.isBeside(file), let page = try? await base.read(InkWebPage.file) else { return nil }
        return InkWebPage.title(in: page, stem: InkBeatMaker.stem(of: file))
    }

    /// Loads the compiled ink and writes its story.json. The title is the `# title:` tag's, else the web
    /// page's (`pageTitle`), else `name`, which always gives the id.
    static func load(_ bytes: [UInt8], file: String, name: String, pageTitle: String? = nil, seed: Int) throws(StorySourceError) -> (InkBeatMaker, [UInt8]) {
        let version = "ink-" + String(FNV1a.hash(bytes), radix: 16)
        let maker: InkBeatMaker
        let document: JSON
        do {
            document = try parse(bytes)  // once: for the runtime and for the tag scan
            maker = try InkBeatMaker(document: document, file: file, name: pageTitle ?? name, version: version, seed: seed)
        } catch {
            throw .notAStory(path: file, reason: "\(file) is not a compiled ink story this reader can play: \(error.message)")
        }
        var criticality: [AssetPath: Criticality] = [:]
        let tags = InkTagScan.scan(document)
        for path in InkTagScan.criticalAssets(tags) { criticality[path] = .critical }
        maker.saysLoop = tags.contains { found in
            if let text = found.text, case .loop = PageTag(text) { return true }
            return false
        }
        let manifest = StoryManifest(
            id: storyId(name), title: String(maker.title.prefix(500)), author: maker.author.map { String($0.prefix(500)) }, version: version,
            startBeatId: InkBeatMaker.startBeatId, criticality: criticality, defaultCriticality: inkDefaultCriticality, theme: maker.theme)
        return (maker, StoryEncoder.encode(manifest))
    }

    /// The criticality of the pictures and sounds an ink story's tags name, unless tagged `# critical`: a
    /// published game names pictures that were never published, and Calico writes `# background: none.jpg`
    /// for "no background", so a missing one is never a reason to stop (docs/ink.md, "Tags").
    static let inkDefaultCriticality = Criticality.important

    /// The compiled ink document of the file: without the byte order mark inklecate writes, and out of Inky's web
    /// export (`var storyContent = {...};`, `window.storydata = {...};`) when it is one.
    static func parse(_ bytes: [UInt8]) throws(StoryLoadError) -> JSON {
        let body = InkFileFormat.json(in: bytes) ?? (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...])
        do {
            return try JSONParser.parse(Array(body), options: .ink)
        } catch {
            throw StoryLoadError("not valid JSON: \(error.description)")
        }
    }

    /// The story id: the story's `name`, every character outside `[A-Za-z0-9_-]` made `-`.
    static func storyId(_ name: String) -> String { StoryManifest.id(fromName: name, otherwise: "ink") }

    private static func sourceError(_ problem: InkBeatMaker.Problem, path: String, file: String) -> StorySourceError {
        switch problem {
        case .unknownBeat: .notFound(path: path)
        case .badTag(let bad): .invalidPath(path: file, reason: "the tag \"\(bad.tag)\" at ink path \"\(bad.place)\": \(bad.reason)")
        case .runtime(let message): .io(path: file, message: "ink error: \(message)")
        }
    }
}
