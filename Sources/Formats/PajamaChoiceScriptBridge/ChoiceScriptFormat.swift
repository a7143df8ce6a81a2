import PajamaModel
import PajamaStoryFormat

/// ChoiceScript games (docs/choicescript.md): a scenes folder of `.txt` files read with ChoiceScript's own
/// semantics (`PajamaChoiceScript`).
public struct ChoiceScriptFormat: StoryFormat {
    public init() {}

    public var name: String { "choicescript" }
    public var displayName: String { "ChoiceScript" }

    public func find(at path: String) -> FoundStory? {
        ChoiceScriptFiles.files(at: path).map { FoundStory(format: self, folder: $0.folder, files: $0.files) }
    }

    public var usualNames: [String] { ChoiceScriptFiles.usualNames }

    public func mayHold(fileName: String) -> Bool { ChoiceScriptFiles.mayBeScene(fileName) }

    public func holds(_ bytes: [UInt8], fileName: String) -> Bool { ChoiceScriptFiles.holdsScene(bytes) }

    public func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource {
        ChoiceScriptStorySource(base: base, files: files, seed: seed, prefetched: prefetched)
    }

    public func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        try ChoiceScriptStorySource.manifest(folder: story.folder, files: story.files)
    }

    public func packageFiles(of story: FoundStory) -> PackageFileSet {
        PackageFileSet.of(story.files, in: story.folder, maximumSize: ChoiceScriptFiles.maximumFileSize, named: ChoiceScriptFiles.assets(in:))
    }
}
