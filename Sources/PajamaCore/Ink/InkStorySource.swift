import Foundation
import PajamaInk

/// An ink story (`story.ink.json`) read as a story package: a `StorySource` whose `story.json` and
/// `beats/<id>.json` are made from the compiled ink as they are asked for (`InkBeatMaker`), and whose other
/// files (pictures and sounds named by tags) come from `base`, the folder or base URL the ink file is in.
/// The loading engine (caches, preloading, gating), the reader, progress and `pajama play` then work on it
/// as on any package (docs/ink.md, "Reading ink stories").
///
/// The ink file is read once, on the first request (a failed read is tried again by the next one).
public actor InkStorySource: StorySource {
    /// Where the ink file and its assets are.
    public nonisolated let base: any StorySource
    /// The ink file's name in `base`.
    public nonisolated let file: String
    public nonisolated var location: String { base.location.hasSuffix("/") ? base.location + file : base.location + "/" + file }
    public nonisolated var isLocal: Bool { base.isLocal }
    public nonisolated var makesBeats: Bool { true }
    private let requestedSeed: Int?

    private enum State {
        case idle
        case reading(Task<Result<[UInt8], StorySourceError>, Never>)
        case ready(InkBeatMaker, manifest: [UInt8])
    }

    private var state = State.idle

    /// `seed` fixes ink's random seed (a random one, 0-99 as in ink, otherwise; a resumed reading uses
    /// its saved seed).
    public init(base: any StorySource, file: String, seed: Int? = nil) {
        self.base = base
        self.file = file
        self.requestedSeed = seed
    }

    /// True for a file name the reader opens as ink.
    public static func isInkFile(_ name: String) -> Bool { name.lowercased().hasSuffix(".ink.json") }

    /// The folder and name of the ink file a local `path` names: the file itself, or the one `*.ink.json` of
    /// a folder without story.json; nil for anything else (a story package, nothing there).
    public static func inkFile(at path: String) -> (folder: String, file: String)? {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if !isFolder.boolValue {
            guard isInkFile(url.lastPathComponent) else { return nil }
            return (url.deletingLastPathComponent().path, url.lastPathComponent)
        }
        guard !FileManager.default.fileExists(atPath: url.appendingPathComponent("story.json").path),
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return nil }
        let inks = names.filter(isInkFile)
        return inks.count == 1 ? (url.path, inks[0]) : nil
    }

    /// An ink story on disk (`inkFile(at:)`), or nil when `path` names none.
    public static func local(_ path: String, seed: Int? = nil) -> InkStorySource? {
        inkFile(at: path).map { InkStorySource(base: FolderStorySource(folder: $0.folder), file: $0.file, seed: seed) }
    }

    /// The story.json an ink file on disk reads as (for the library), without keeping the story.
    public static func manifest(folder: String, file: String) throws(StorySourceError) -> StoryManifest {
        let bytes = try FolderStorySource(folder: folder).readSync(file)
        let (_, manifest) = try load(bytes, file: file, seed: 0)
        do {
            return try StoryDecoder.decodeManifest(manifest)
        } catch {
            throw .notAStory(path: file, reason: error.description)
        }
    }

    // MARK: StorySource

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        try await read(path, progress: { _ in })
    }

    public func read(_ path: String, progress: @escaping @Sendable (TransferProgress) -> Void) async throws(StorySourceError) -> [UInt8] {
        if path == "story.json" { return try await ready().manifest }
        if path.hasPrefix("beats/"), path.hasSuffix(".json") {
            let id = String(path.dropFirst("beats/".count).dropLast(".json".count))
            let maker = try await ready().maker
            do throws(InkBeatMaker.Problem) {
                return StoryEncoder.encode(try maker.beat(id))
            } catch {
                throw sourceError(error, path: path)
            }
        }
        return try await base.read(path, progress: progress)
    }

    public func restore(_ origin: BeatOrigin) async -> OriginRestore {
        do throws(StorySourceError) {
            return try await ready().maker.restore(origin)
        } catch {
            return .failed("cannot read \(file) again to resume: \(error.reason)")
        }
    }

    // MARK: Reading the ink file

    /// The maker (and story.json), reading and loading the ink file the first time.
    private func ready() async throws(StorySourceError) -> (maker: InkBeatMaker, manifest: [UInt8]) {
        let task: Task<Result<[UInt8], StorySourceError>, Never>
        switch state {
        case .ready(let maker, let manifest): return (maker, manifest)
        case .reading(let running): task = running
        case .idle:
            let base = self.base
            let file = self.file
            task = Task { () -> Result<[UInt8], StorySourceError> in
                do throws(StorySourceError) { return .success(try await base.read(file)) } catch { return .failure(error) }
            }
            state = .reading(task)
        }
        let result = await task.value
        if case .ready(let maker, let manifest) = state { return (maker, manifest) }  // another caller finished first
        switch result {
        case .failure(let error):
            state = .idle
            throw error
        case .success(let bytes):
            do throws(StorySourceError) {
                let (maker, manifest) = try Self.load(bytes, file: file, seed: requestedSeed ?? Int.random(in: 0..<100))
                state = .ready(maker, manifest: manifest)
                return (maker, manifest)
            } catch {
                state = .idle
                throw error
            }
        }
    }

    /// Loads the compiled ink and writes its story.json.
    static func load(_ bytes: [UInt8], file: String, seed: Int) throws(StorySourceError) -> (InkBeatMaker, [UInt8]) {
        let text = jsonText(bytes)
        let version = "ink-" + String(FNV1a.hash(bytes), radix: 16)
        let maker: InkBeatMaker
        do {
            maker = try InkBeatMaker(json: text, file: file, version: version, seed: seed)
        } catch {
            throw .notAStory(path: file, reason: "\(file) is not a compiled ink story this reader can play: \(error.message)")
        }
        var criticality: [AssetPath: Criticality] = [:]
        if let document = try? JSONParser.parse(Array(text.utf8)) {
            for path in InkTagScan.criticalAssets(InkTagScan.scan(document)) { criticality[path] = .critical }
        }
        let manifest = StoryManifest(
            id: storyId(file), title: String(maker.title.prefix(500)), author: maker.author.map { String($0.prefix(500)) }, version: version,
            startBeatId: InkBeatMaker.startBeatId, criticality: criticality)
        return (maker, StoryEncoder.encode(manifest))
    }

    /// The text of the file, without the byte order mark inklecate writes.
    static func jsonText(_ bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return String(decoding: body, as: UTF8.self)
    }

    /// The story id: the file name without `.ink.json`, every character outside `[A-Za-z0-9_-]` made `-`.
    static func storyId(_ file: String) -> String {
        let stem = InkBeatMaker.stem(of: file)
        let id = String(stem.unicodeScalars.prefix(128).map { scalar -> Character in
            let ok = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            return ok ? Character(scalar) : "-"
        })
        return id.isEmpty ? "ink" : id
    }

    private func sourceError(_ problem: InkBeatMaker.Problem, path: String) -> StorySourceError {
        switch problem {
        case .unknownBeat: .notFound(path: path)
        case .badTag(let bad): .invalidPath(path: file, reason: "the tag \"\(bad.tag)\" at ink path \"\(bad.inkPath)\": \(bad.reason)")
        case .runtime(let message): .io(path: file, message: "ink error: \(message)")
        }
    }
}
