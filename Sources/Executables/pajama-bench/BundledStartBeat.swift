import PajamaLoading
import PajamaModel
import PajamaTestSupport

/// The bundled story the in-process scenarios measure (lantern-keeper): its folder, manifest and the bytes
/// of its first beat, read once.
struct BundledStartBeat {
    let source: FolderStorySource
    let manifest: StoryManifest
    let bytes: [UInt8]

    init() throws {
        source = FolderStorySource(folder: PackagePaths.stories.appendingPathComponent("lantern-keeper").path)
        manifest = try StoryDecoder.decodeManifest(try source.readSync("story.json"))
        bytes = try source.readSync("beats/\(manifest.startBeatId).json")
    }

    /// The first beat, decoded.
    func beat() throws -> Beat {
        try StoryDecoder.decodeBeat(bytes, file: "beat", expectedId: manifest.startBeatId)
    }
}
