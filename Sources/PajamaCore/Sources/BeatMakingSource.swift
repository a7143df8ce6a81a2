/// A story source that makes its beats from story files of its own (an ink story, a Twine story): it answers
/// `story.json` and `beats/<id>.json` itself and reads everything else (pictures, sounds) from `base`.
public protocol BeatMakingSource: StoryFilesSource {
    /// The `story.json` it made for the story.
    func madeManifest() async throws(StorySourceError) -> [UInt8]
    /// The beat `id`, made; `path` (`beats/<id>.json`) names it in errors.
    func makeBeat(_ id: String, path: String) async throws(StorySourceError) -> Beat
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
        return try await base.read(path, progress: progress)
    }

    public func madeBeat(_ id: String) async throws(StorySourceError) -> Beat? {
        try await makeBeat(id, path: "beats/\(id).json")
    }
}
