import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel

/// Pajama's own format (shared/STORY_FORMAT.md): a folder (or base URL) with story.json and beats/. Last
/// in the registry's order among local formats but one: an ink story may be called story.json, so ink is
/// asked first; a folder with a story.json is never a Twine story, so Twine is asked after.
public struct PajamaPackageFormat: StoryFormat {
    public init() {}

    public var name: String { "pajama" }
    public var displayName: String { "Pajama" }

    public func find(at path: String) -> FoundStory? {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        let folder = isFolder ? path : PathText.deletingLastComponent(path)
        if !isFolder, PathText.lastComponent(path) != "story.json" { return nil }
        guard FileManager.default.fileExists(atPath: PathText.appending(folder, "story.json")) else { return nil }
        return FoundStory(format: self, folder: folder, files: [])
    }

    /// A package is known by its folder, never by one file's name.
    public func mayHold(fileName: String) -> Bool { false }

    public func holds(_ bytes: [UInt8], fileName: String) -> Bool { false }

    public func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource { base }

    public func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        let bytes = try FolderStorySource(folder: story.folder).readSync("story.json")
        do {
            return try StoryDecoder.decodeManifest(bytes)
        } catch {
            throw .notAStory(path: "story.json", reason: error.description)
        }
    }

    /// story.json, the beats it lists, its start beat and every beat reachable from them, and the assets
    /// story.json and those beats name. A file that cannot be read or decoded is kept (its readers say
    /// what is wrong with it) but what it would have named is not.
    public func packageFiles(of story: FoundStory) -> PackageFileSet {
        let root = URL(fileURLWithPath: story.folder)
        func bytes(_ path: String) -> [UInt8]? {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path),
                  data.count <= StoryDecoder.maximumFileSize else { return nil }
            return [UInt8](data)
        }
        var files = PackageFileSet(storyFiles: ["story.json": StoryDecoder.maximumFileSize], assets: [])
        guard let manifestBytes = bytes("story.json"), let manifest = try? StoryDecoder.decodeManifest(manifestBytes) else { return files }
        files.assets.formUnion(manifest.criticality.keys)
        var pending = [manifest.startBeatId] + (manifest.beats ?? [])
        var seen = Set<String>()
        while let id = pending.popLast() {
            guard seen.insert(id).inserted, StoryManifest.isValidId(id) else { continue }
            let path = "beats/\(id).json"
            files.storyFiles[path] = StoryDecoder.maximumFileSize
            guard let data = bytes(path), let beat = try? StoryDecoder.decodeBeat(data, file: path, expectedId: id) else { continue }
            files.assets.formUnion(beat.assetReferences.map(\.path))
            pending.append(contentsOf: beat.successorBeatIds)
        }
        return files
    }
}
