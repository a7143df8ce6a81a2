import PajamaModel

/// A story package in memory (path -> bytes), for the targets that need a source: what a folder would
/// serve, with the same path rules (`AssetPath`) and the same "not found". With `assetBytes`, every asset
/// (a file outside story.json and beats/) is there with those bytes: the story target checks the
/// package's JSON, the picture and sound targets the assets.
struct MemoryStorySource: StorySource {
    let files: [String: [UInt8]]
    var assetBytes: [UInt8]? = nil
    var location: String { "memory" }
    var isLocal: Bool { true }

    func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        do {
            _ = try AssetPath(validating: path)
        } catch {
            throw .invalidPath(path: path, reason: "\(error)")
        }
        if let bytes = files[path] { return bytes }
        if let assetBytes, path != "story.json", !path.hasPrefix("beats/") { return assetBytes }
        throw .notFound(path: path)
    }
}
