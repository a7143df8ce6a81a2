import Foundation
import PajamaLoading
import PajamaModel
import PajamaFormats
import PajamaHTTP
import PajamaInkBridge
import PajamaStoryFormat
import PajamaTestSupport
import PajamaTwineBridge
import Testing

/// A format of the tests' own, to show the seam takes a new format with nothing but a registry entry: a
/// `.mirror` file holds a Pajama story.json whose one beat is written inline (`"mirrorBeat"`), read by
/// a source of its own beside the file's pictures.
struct MirrorFormat: StoryFormat {
    var name: String { "mirror" }
    var fileKind: String? { "a mirror file (.mirror)" }
    var usualNames: [String] { ["story.mirror"] }

    func find(at path: String) -> FoundStory? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        if !isFolder.boolValue {
            return path.hasSuffix(".mirror") ? FoundStory(format: self, folder: (path as NSString).deletingLastPathComponent, files: [(path as NSString).lastPathComponent]) : nil
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let files = names.filter { $0.hasSuffix(".mirror") }.sorted()
        return files.count == 1 ? FoundStory(format: self, folder: path, files: files) : nil
    }

    func mayHold(fileName: String) -> Bool { fileName.hasSuffix(".mirror") }
    func holds(_ bytes: [UInt8], fileName: String) -> Bool { String(decoding: bytes.prefix(16), as: UTF8.self).hasPrefix("{\"mirror\"") }

    func open(base: any StorySource, files: [String], seed: Int?, prefetched: [UInt8]?) -> any StorySource {
        MirrorSource(base: base, file: files.first ?? "", prefetched: prefetched)
    }

    func manifest(of story: FoundStory) throws(StorySourceError) -> StoryManifest {
        let bytes = try FolderStorySource(folder: story.folder).readSync(story.files[0])
        do { return try StoryDecoder.decodeManifest(MirrorSource.manifest(bytes)) } catch { throw .notAStory(path: story.files[0], reason: error.description) }
    }

    func packageFiles(of story: FoundStory) -> PackageFileSet {
        PackageFileSet(storyFiles: [story.files[0]: 1 << 20], assets: [try! AssetPath(validating: "pictures/moon.txt")])
    }
}

/// story.json is the file's bytes after `{"mirror":true,`; beats/start.json a one-page beat.
struct MirrorSource: StoryFilesSource {
    let base: any StorySource
    let file: String
    let prefetched: [UInt8]?
    var storyFiles: [String] { [file] }
    var formatName: String { "mirror" }
    var location: String { base.location }
    var isLocal: Bool { base.isLocal }

    static func manifest(_ bytes: [UInt8]) -> [UInt8] { Array("{".utf8) + bytes.dropFirst("{\"mirror\":true,".utf8.count) }

    func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        switch path {
        case "story.json":
            if let prefetched { return Self.manifest(prefetched) }
            return Self.manifest(try await base.read(file))
        case "beats/start.json":
            return Array(#"{"id":"start","pages":[{"id":"p1","type":"text","lines":["Moonlight."],"imageUrl":"pictures/moon.txt"}]}"#.utf8)
        default: return try await base.read(path)
        }
    }
}

@Suite struct FormatRegistryTests {
    static let mirror = #"{"mirror":true,"format":1,"id":"moon","title":"The Moon","version":"1","startBeatId":"start"}"#
    static let registry = FormatRegistry([InkFormat(), PajamaPackageFormat(), MirrorFormat(), TwineFormat()])

    @Test func aNewFormatIsFoundOnDiskOverHTTPAndFromAWelcomeByItsRegistryEntryAlone() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-formats")
        defer { dir.remove() }
        try dir.write("moon/story.mirror", Self.mirror)
        try dir.write("moon/pictures/moon.txt", "( )")
        let folder = dir.url.appendingPathComponent("moon").path

        // On disk: the folder and the file, with its manifest and the files a host serves.
        #expect(FormatRegistry.all.find(at: folder) == nil)
        let found = try #require(Self.registry.find(at: folder))
        #expect(found.format.name == "mirror" && found.files == ["story.mirror"])
        #expect(try found.manifest().title == "The Moon")
        #expect(found.packageFiles().assets.map(\.value) == ["pictures/moon.txt"])
        #expect(Self.registry.isStoryFolder(folder))
        let local = Self.registry.openLocal(folder + "/story.mirror")
        #expect(try StoryDecoder.decodeManifest(try await local.read("story.json")).id == "moon")
        #expect(try await local.read("pictures/moon.txt") == Array("( )".utf8))

        // Over HTTP: the file's URL (read once, its bytes kept) and the folder's (its usual name).
        let server = try await TestHTTPServer(root: dir.url)
        defer { server.stopSoon() }
        for url in ["/moon/story.mirror", "/moon/"] {
            let remote = await Self.registry.openRemote(URL(string: server.baseURL + url)!) { HTTPStorySource(baseURL: $0) }
            let source = try #require(remote as? MirrorSource, "\(url)")
            #expect(try StoryDecoder.decodeManifest(try await source.read("story.json")).title == "The Moon")
        }
        #expect(server.requestCount(for: "moon/story.mirror") == 2)

        // From a co-reading welcome: by its name, and by its files' names from a host that names no format.
        let package = FolderStorySource(folder: folder)
        #expect(StorySources.made(base: package, format: "mirror", files: ["story.mirror"], formats: Self.registry) is MirrorSource)
        #expect(StorySources.made(base: package, format: nil, files: ["story.mirror"], formats: Self.registry) is MirrorSource)
        #expect(Self.registry.storyFileKinds == "a compiled ink file (.ink.json, .json, .js), a mirror file (.mirror) or a Twine story (Harlowe or SugarCube: .twee, .tw, a published .html)")
    }

    /// Twine and SugarCube share their files: the registry names each kind and each usual file name once
    /// (messages, and the names a story folder's URL is tried by).
    @Test func sharedFileNamesAreNamedOnce() {
        let names = FormatRegistry.all.usualNames
        #expect(names == names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
        #expect(names.contains("story.twee") && names.contains("story.json"))
        #expect(FormatRegistry.all.storyFileKinds.components(separatedBy: ".twee").count == 2, "\(FormatRegistry.all.storyFileKinds)")
    }

    /// The formats as the program has them: ink before Pajama's own (an ink story may be called story.json),
    /// Twine after (a folder with a story.json is never Twine), ChoiceScript last; a welcome from a host before the seam names
    /// files only, and its format is known by their names.
    @Test func theProgramsFormatsInTheirOrder() throws {
        #expect(FormatRegistry.all.formats.map(\.name) == ["ink", "pajama", "twine", "choicescript", "sugarcube"])
        let bundled = PackagePaths.stories
        #expect(FormatRegistry.all.find(at: bundled.appendingPathComponent("lantern-keeper").path)?.format.name == "pajama")
        #expect(FormatRegistry.all.find(at: bundled.appendingPathComponent("ferry-cat").path)?.format.name == "ink")
        #expect(FormatRegistry.all.find(at: bundled.path) == nil)
        #expect(FormatRegistry.all.format(named: nil, files: ["tale.ink.json"])?.name == "ink")
        #expect(FormatRegistry.all.format(named: nil, files: ["a.twee", "b.twee"])?.name == "twine")
        #expect(FormatRegistry.all.format(named: "ink", files: ["index.html"])?.name == "ink")
        #expect(FormatRegistry.all.format(named: nil, files: []) == nil)
    }
}
