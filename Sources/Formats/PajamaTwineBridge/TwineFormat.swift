import PajamaModel
import PajamaStoryFormat

/// Twine 2 stories (docs/twine.md, "Which files are Twine"): Twee 3 source or published HTML, read with
/// Harlowe 3's semantics. A SugarCube story is not this format's: SugarCubeFormat, after it in the registry,
/// plays it.
public struct TwineFormat: StoryFormat {
    public init() {}

    public var name: String { "twine" }
    public var displayName: String { "Twine" }

    public func find(at path: String) -> FoundStory? {
        guard let found = TwineFiles.files(at: path), !TwineFiles.holdsSugarCube(TwineFiles.bytes(of: found.files, in: found.folder)) else { return nil }
        return FoundStory(format: self, folder: found.folder, files: found.files)
    }

    public var fileKind: String? { "a Twine story (Harlowe or SugarCube: .twee, .tw, a published .html)" }

    public var usualNames: [String] { TwineFiles.usualNames }

    public func mayHold(fileName: String) -> Bool { TwineFiles.mayBeTwine(fileName) }

    public func holds(_ bytes: [UInt8], fileName: String) -> Bool { TwineFiles.holdsTwine(bytes) && !TwineFiles.holdsSugarCube(bytes) }

    public func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource {
        TwineStorySource(base: base, files: files, seed: seed, prefetched: prefetched)
    }

    public func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        try TwineStorySource.manifest(folder: story.folder, files: story.files)
    }

    public func packageFiles(of story: FoundStory) -> PackageFileSet {
        PackageFileSet.of(story.files, in: story.folder, maximumSize: TwineFiles.maximumFileSize, named: TwineFiles.assets(in:))
    }
}
