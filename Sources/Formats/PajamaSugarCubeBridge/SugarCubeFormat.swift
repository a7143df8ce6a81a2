import PajamaModel
import PajamaStoryFormat
import PajamaTwineBridge

/// SugarCube 2 stories (docs/sugarcube.md): a Twine story (Twee 3 source or published HTML, as
/// `TwineFiles` finds them) whose story format is SugarCube. `TwineFormat`, before it in the registry, leaves
/// these to it and plays every other Twine story (Harlowe, and says which formats it does not play).
public struct SugarCubeFormat: StoryFormat {
    public init() {}

    public var name: String { "sugarcube" }
    public var displayName: String { "SugarCube" }

    public func find(at path: String) -> FoundStory? {
        guard let (folder, files) = TwineFiles.files(at: path), TwineFiles.holdsSugarCube(TwineFiles.bytes(of: files, in: folder)) else { return nil }
        return FoundStory(format: self, folder: folder, files: files)
    }

    /// None of its own: its files are Twine's, which TwineFormat's `fileKind` names ("Harlowe or SugarCube").
    public var fileKind: String? { nil }

    public var usualNames: [String] { TwineFiles.usualNames }

    public func mayHold(fileName: String) -> Bool { TwineFiles.mayBeTwine(fileName) }

    public func holds(_ bytes: [UInt8], fileName: String) -> Bool { TwineFiles.holdsSugarCube(bytes) }

    public func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource {
        SugarCubeStorySource(base: base, files: files, seed: seed, prefetched: prefetched)
    }

    public func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        try SugarCubeStorySource.manifest(folder: story.folder, files: story.files)
    }

    public func packageFiles(of story: FoundStory) -> PackageFileSet {
        PackageFileSet.of(story.files, in: story.folder, maximumSize: SugarCubeFiles.maximumFileSize, named: SugarCubeFiles.assets(in:))
    }
}
