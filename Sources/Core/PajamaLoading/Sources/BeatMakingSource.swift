import PajamaModel

/// A story source that makes its beats from story files of its own (an ink story, a Twine story): it answers
/// `story.json` and `beats/<id>.json` itself and reads everything else (pictures, sounds) from `base`.
public protocol BeatMakingSource: StoryFilesSource {
    /// The `story.json` it made for the story.
    func madeManifest() async throws(StorySourceError) -> [UInt8]
    /// The beat `id`, made; `path` (`beats/<id>.json`) names it in errors.
    func makeBeat(_ id: String, path: String) async throws(StorySourceError) -> Beat
    /// The other sources of the file `path`, in order, when the story names it as the first of several (a
    /// Twine `<audio>` with several `<source>`s, a HAL track's sources): reading `path`, each is tried in turn
    /// while the file before is not there, as a browser plays the first source it finds. Empty by default.
    func alternatives(to path: String) async -> [String]
}

extension BeatMakingSource {
    public var makesBeats: Bool { true }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        try await read(path, progress: { _ in })
    }

    public func read(_ path: String, progress: @escaping @Sendable (TransferProgress) -> Void) async throws(StorySourceError) -> [UInt8] {
        if path == "story.json" { return try await madeManifest() }
        if path.hasPrefix("beats/"), path.hasSuffix(".json") {
            return StoryEncoder.encode(try await makeBeat(String(path.dropFirst("beats/".count).dropLast(".json".count)), path: path))
        }
        do {
            return try await base.read(path, progress: progress)
        } catch {
            guard case .notFound = error else { throw error }
            for other in await alternatives(to: path) {
                do {
                    return try await base.read(other, progress: progress)
                } catch {
                    guard case .notFound = error else { throw error }
                }
            }
            throw error
        }
    }

    public func alternatives(to path: String) async -> [String] { [] }

    public func madeBeat(_ id: String) async throws(StorySourceError) -> Beat? {
        try await makeBeat(id, path: "beats/\(id).json")
    }
}

/// A story's runtime handed to one reading (`OwnRuntimeSource.ownRuntime()`): the story.json it made, and its
/// beats made at once on the reading's own thread, with no hop to the source's actor. Not Sendable: it is used
/// where it was handed over, one call at a time.
public struct OwnedRuntime {
    /// The story.json the runtime made for the story.
    public var manifest: [UInt8]
    /// The beat `id`, made; `path` (`beats/<id>.json`) names it in errors, as the source's `makeBeat` does.
    public var makeBeat: (_ id: String, _ path: String) throws(StorySourceError) -> Beat
    /// Makes the runtime know the beat `origin` leads to again, as the source's `restore` does.
    public var restore: (_ origin: BeatOrigin) -> OriginRestore

    public init(manifest: [UInt8], makeBeat: @escaping (String, String) throws(StorySourceError) -> Beat,
                restore: @escaping (BeatOrigin) -> OriginRestore) {
        self.manifest = manifest
        self.makeBeat = makeBeat
        self.restore = restore
    }
}

/// A source that makes its beats and can give a reading a runtime of its own, made from the same files with the
/// same seed: a reading that owns it (`DirectStoryContent`, `pajama play`) makes each beat on its own thread
/// instead of hopping to the source's actor and back for every beat. The source's own runtime is not touched.
public protocol OwnRuntimeSource: BeatMakingSource {
    /// A new runtime of the story (its files read, or the ones already read), or why there is none.
    func ownRuntime() async throws(StorySourceError) -> sending OwnedRuntime
}
