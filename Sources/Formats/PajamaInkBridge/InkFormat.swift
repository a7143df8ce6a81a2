import PajamaModel
import PajamaStoryFormat

/// Compiled ink (docs/ink.md, "Which files are ink"), known by its content whatever its file is called:
/// an `*.ink.json`, a `.json` or an Inky web export's `.js`.
public struct InkFormat: StoryFormat {
    public init() {}

    public var name: String { "ink" }

    public func find(at path: String) -> FoundStory? {
        InkStorySource.inkFile(at: path).map { FoundStory(format: self, folder: $0.folder, files: [$0.file]) }
    }

    public var fileKind: String? { "a compiled ink file (.ink.json, .json, .js)" }

    public var usualNames: [String] { InkFileFormat.usualNames }

    public func mayHold(fileName: String) -> Bool {
        let lower = fileName.lowercased()
        return lower.hasSuffix(".json") || lower.hasSuffix(".js")
    }

    public func claims(fileName: String) -> Bool { InkStorySource.isInkFile(fileName) }

    public func holds(_ bytes: [UInt8], fileName: String) -> Bool { InkFileFormat.json(in: bytes) != nil }

    public func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource {
        InkStorySource(base: base, file: files.first ?? "", seed: seed, prefetched: prefetched)
    }

    public func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        try InkStorySource.manifest(folder: story.folder, file: story.files.first ?? "")
    }

    public func packageFiles(of story: FoundStory) -> PackageFileSet {
        PackageFileSet.of(story.files, in: story.folder, maximumSize: InkStorySource.maximumFileSize, named: InkAssets.named(in:))
    }
}
