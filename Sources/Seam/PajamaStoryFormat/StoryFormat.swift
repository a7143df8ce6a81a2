import PajamaLoading
import PajamaModel

/// One story format Pajama reads (its own packages, ink, Twine, ...): everything the rest of the program
/// needs to know of it, so that the library, `read`, `play`, `validate`, `install-story` and the co-reading
/// host loop over `FormatRegistry` and never name a format (docs/architecture.md, "The format seam").
///
/// A format knows its stories three ways: on disk (`find(at:)`), by a file's name and bytes at a URL
/// (`mayHold(fileName:)`, `holds(_:)`, `usualNames`), and from the files a co-reading host names
/// (`open(base:files:seed:prefetched:)`). Everything else works on what it opens: a `StorySource`.
public protocol StoryFormat: Sendable {
    /// The format's name in messages, the library and the co-reading welcome: "pajama", "ink", "twine".
    var name: String { get }

    /// The format's name as the library shows it ("Pajama", "ink", "Twine", "ChoiceScript"); `name` unless
    /// the format says otherwise.
    var displayName: String { get }

    /// What a story of this format given as one file is, for messages ("a compiled ink file (.ink.json)");
    /// nil for a format whose stories are folders.
    var fileKind: String? { get }

    /// The story on disk that `path` (a file or a folder) names, nil when it is none of this format's.
    /// A format earlier in the registry is asked first, so a later one need not rule out an earlier one's.
    func find(at path: String) -> FoundStory?

    /// The names a folder URL is tried for, in order (a web server cannot list a folder). Empty for a
    /// format whose folder URL is the story itself (Pajama's own packages).
    var usualNames: [String] { get }

    /// True when a file of this name may hold a story of this format (its bytes decide: `holds`).
    func mayHold(fileName: String) -> Bool

    /// True when a file of this name is this format's by its name alone (`*.ink.json`): it is opened as
    /// this format's without reading it first, so a failed read is reported for that file.
    func claims(fileName: String) -> Bool

    /// True when `bytes`, the content of a file named `fileName`, hold a story of this format.
    func holds(_ bytes: [UInt8], fileName: String) -> Bool

    /// The story made from `files` (the story's own files, as `FoundStory.files` or a co-reading welcome
    /// name them) read from `base`, beside its pictures and sounds. `seed` fixes the story's randomness
    /// (random otherwise); `prefetched` holds the first file's bytes when the caller read them already.
    func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource

    /// What the library and the installer show of a story on disk, read without keeping the story.
    func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest

    /// The files of a story on disk that belong to it: its own files and the pictures and sounds they name
    /// (what `install-story` copies of a story given as a file, and what a co-reading host serves).
    func packageFiles(of story: FoundStory) -> PackageFileSet
}

extension StoryFormat {
    public var displayName: String { name }
    public var usualNames: [String] { [] }
    public var fileKind: String? { nil }
    public func claims(fileName: String) -> Bool { false }
}

/// A story on disk a format found: the folder it is in, and its own files there (empty for a package,
/// whose folder is the story).
public struct FoundStory: Sendable {
    public let format: any StoryFormat
    /// The folder holding the story's files.
    public let folder: String
    /// The story's own files in `folder`, in reading order; empty when the folder itself is the story.
    public let files: [String]

    public init(format: any StoryFormat, folder: String, files: [String]) {
        self.format = format
        self.folder = folder
        self.files = files
    }

    /// The story opened from disk.
    public func open(seed: Int? = nil) -> any StorySource {
        format.open(base: FolderStorySource(folder: folder), files: files, seed: seed, prefetched: nil)
    }

    public func manifest() throws(StorySourceError) -> StoryManifest { try format.manifest(of: self) }

    public func packageFiles() -> PackageFileSet { format.packageFiles(of: self) }
}

/// The files of a story, relative to its folder: the story's own (with the size a format lets them be)
/// and the pictures and sounds they name.
public struct PackageFileSet: Sendable, Equatable {
    /// The story's own files and the most bytes each may hold.
    public var storyFiles: [String: Int]
    /// The pictures and sounds the story names.
    public var assets: Set<AssetPath>

    public init(storyFiles: [String: Int], assets: Set<AssetPath>) {
        self.storyFiles = storyFiles
        self.assets = assets
    }

    /// The set of a story made of `files` in `folder`, each at most `maximumSize` bytes, with the pictures and
    /// sounds `named` reads in each (a file that cannot be read names none: its reader says why).
    public static func of<Named: Sequence<AssetPath>>(
        _ files: [String], in folder: String, maximumSize: Int, named: ([UInt8]) -> Named
    ) -> PackageFileSet {
        let base = FolderStorySource(folder: folder)
        var set = PackageFileSet(storyFiles: [:], assets: [])
        for file in files {
            set.storyFiles[file] = maximumSize
            if let bytes = try? base.readSync(file) { set.assets.formUnion(named(bytes)) }
        }
        return set
    }
}
