import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStoryFormat
import PajamaTwine

/// A Twine story (Twee 3 source or published HTML) read as a story package: a `StorySource` whose
/// `story.json` and `beats/<id>.json` are made from the story as they are asked for (`TwineBeatMaker`, a
/// passage or a revealed hook is a beat), and whose other files (pictures and sounds) come from `base`, the
/// folder or base URL the story's file is in (docs/twine.md). The same shape as the ink bridge's source.
///
/// The files are read once, on the first request (a failed read is tried again by the next one).
public actor TwineStorySource: OwnRuntimeSource, StoryPartsSource {
    public nonisolated let base: any StorySource
    /// The story's files in `base`: one HTML or Twee file, or several Twee files read as one story.
    public nonisolated let files: [String]
    public nonisolated var storyFiles: [String] { files }
    public nonisolated var formatName: String { TwineFormat().name }
    public nonisolated var location: String {
        let file = files.count == 1 ? files[0] : ""
        return base.location.hasSuffix("/") ? base.location + file : base.location + "/" + file
    }
    public nonisolated var isLocal: Bool { base.isLocal }
    public nonisolated var name: String { TwineFiles.name(files: files, location: base.location) }
    private let requestedSeed: Int?
    /// The file's bytes when they were read already (a URL's content probed to know it is Twine).
    private let prefetched: [UInt8]?

    private enum State {
        case idle
        case reading(Task<Result<[UInt8], StorySourceError>, Never>)
        case ready(TwineBeatMaker, manifest: [UInt8])
    }

    private var state = State.idle
    /// The sounds the story names with several sources, by their first (`TwineScan.alternatives(in:)`): found
    /// when a sound is first missing.
    private var alternativeSources: [String: [String]]?

    /// `seed` fixes the random seed of `(either:)` and `(random:)` (a random one otherwise; a resumed reading
    /// uses its saved seed).
    /// `prefetched`: the one file's bytes, read already (not read again).
    public init(base: any StorySource, files: [String], seed: Int? = nil, prefetched: [UInt8]? = nil) {
        self.base = base
        self.files = files
        self.requestedSeed = seed
        self.prefetched = prefetched.map { $0 + [0x0A] }
    }

    /// A Twine story on disk (`TwineFiles.files(at:)`), or nil when `path` names none.
    public static func local(_ path: String, seed: Int? = nil) -> TwineStorySource? {
        TwineFiles.files(at: path).map { TwineStorySource(base: FolderStorySource(folder: $0.folder), files: $0.files, seed: seed) }
    }

    /// The story.json a Twine story on disk reads as (for the library), without keeping the story.
    public static func manifest(folder: String, files: [String]) throws(StorySourceError) -> StoryManifest {
        let base = FolderStorySource(folder: folder)
        var bytes: [UInt8] = []
        for file in files { bytes += try base.readSync(file) + [0x0A] }
        let (_, manifest) = try load(bytes, files: files, name: TwineFiles.name(files: files, location: base.location), seed: 0)
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

    /// A runtime of its own for one reading, from the story's files (read again unless the opener's bytes are
    /// here) with the source's seed (`OwnRuntimeSource`).
    public func ownRuntime() async throws(StorySourceError) -> sending OwnedRuntime {
        let bytes: [UInt8]
        if let prefetched { bytes = prefetched } else { bytes = try await self.bytes() }
        let (maker, manifest) = try Self.load(bytes, files: files, name: name, seed: requestedSeed ?? Int.random(in: 0..<100))
        return OwnedRuntime(manifest: manifest, makeBeat: { id, path throws(StorySourceError) in
            guard let beat = maker.beat(id) else { throw .notFound(path: path) }
            return beat
        }, restore: { maker.restore($0) })
    }

    /// A sound named first of several sources that is not there: the others, in order (docs/twine.md, "Sound").
    public func alternatives(to path: String) async -> [String] {
        if alternativeSources == nil {
            guard let maker = try? await ready().maker else { return [] }
            alternativeSources = alternativeSources ?? TwineScan.alternatives(in: maker.story)
        }
        return alternativeSources?[path] ?? []
    }

    public func validateItself(probe: any AssetProbe) async -> ValidationReport? {
        await TwineValidator.validate(self, probe: probe)
    }

    // MARK: StoryPartsSource

    public nonisolated var partsName: String { "passages" }

    public func allParts() async -> [String] {
        (try? await ready().maker.readablePassages) ?? []
    }

    public func partsReached(by beat: Beat) async -> [String] {
        (try? await ready().maker.passageOfBeat[beat.id]).flatMap { $0 }.map { [$0] } ?? []
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

    private func ready() async throws(StorySourceError) -> (maker: TwineBeatMaker, manifest: [UInt8]) {
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

    /// Parses the story, refuses a format whose expressions are JavaScript (unless it is links and plain text
    /// only), and writes its story.json.
    static func load(_ bytes: [UInt8], files: [String], name: String, seed: Int) throws(StorySourceError) -> (TwineBeatMaker, [UInt8]) {
        let file = files.joined(separator: ", ")
        let story: TwineStory
        do {
            story = try TwineFileKind.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .notAStory(path: file, reason: "\(file) is not a Twine story this reader can read: \(error.message)")
        }
        if story.formatKind == .chapbook || story.formatKind == .snowman {
            let format = [story.format, story.formatVersion].compactMap { $0 }.joined(separator: " ")
            throw .notAStory(path: file, reason: "\(file) is a \(format) story: Pajama does not play \(story.format ?? format) yet "
                + "(it plays Harlowe 3 and SugarCube 2 stories)")
        }
        if story.formatKind != .harlowe, let use = TwinePlainCheck.firstScript(in: story) {
            let format = [story.format, story.formatVersion].compactMap { $0 }.joined(separator: " ")
            throw .notAStory(path: file, reason: "\(file) is a \(format) story: its macros and expressions are JavaScript, which Pajama "
                + "does not run (passage \"\(StoryFormatError.printable(use.passage))\" uses \"\(StoryFormatError.printable(use.construct))\"). "
                + "Pajama plays Harlowe 3 and SugarCube 2 stories, and stories of other formats that hold only links and plain text.")
        }
        let version = "twine-" + String(FNV1a.hash(bytes), radix: 16)
        let title = story.title.trimmingWhitespace
        let maker = TwineBeatMaker(story: story, file: file, title: title.isEmpty ? name : title, version: version, seed: seed)
        let manifest = StoryManifest(
            id: storyId(name), title: String(maker.title.prefix(500)), author: nil, version: version,
            startBeatId: TwineBeatMaker.startBeatId, criticality: criticality(TwineScan(story) { $0.tags.contains("critical") || $0.tags.contains("important") }),
            defaultCriticality: .important)
        return (maker, StoryEncoder.encode(manifest))
    }

    /// The pictures and sounds of passages tagged `critical` or `important` (docs/twine.md, "Pictures and
    /// sounds"): entering their page waits for the critical ones. Every other one is important (the
    /// manifest's `defaultCriticality`): a missing picture is never a reason to stop.
    static func criticality(_ scan: TwineScan) -> [AssetPath: Criticality] {
        var result: [AssetPath: Criticality] = [:]
        for passage in scan.passages {
            let level: Criticality? = passage.tags.contains("critical") ? .critical : passage.tags.contains("important") ? .important : nil
            guard let level else { continue }
            for value in passage.images + passage.sounds {
                guard let path = try? AssetPath(validating: value) else { continue }
                result[path] = max(result[path] ?? .optional, level)
            }
        }
        return result
    }

    /// The story id: the story's `name`, every character outside `[A-Za-z0-9_-]` made `-`.
    static func storyId(_ name: String) -> String { StoryManifest.id(fromName: name, otherwise: "twine") }
}
