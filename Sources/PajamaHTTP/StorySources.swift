import Foundation
import PajamaCore
import PajamaInkBridge
import PajamaTwineBridge

/// Opens a story argument: a URL for `http://`/`https://` (the package's base URL, or its story.json),
/// else a folder. A compiled ink story is known by its content (`InkFileFormat`), whatever its file is
/// called, and opens as an `InkStorySource` over the folder or URL it is in: the file, its URL, a folder
/// holding one (`story.json` when that is ink, `story.js` of an Inky web export, one `*.ink.json`...), or a
/// folder URL whose `story.json` or `story.js` is one (docs/ink.md, "Which files are ink"). A Twine story
/// (Twee 3 or published HTML) is known by its content the same way and opens as a `TwineStorySource`: the
/// file, its URL, a folder holding Twee files or one published HTML file, or a folder URL with none of ink's
/// names whose `index.html`, `story.html` or `story.twee` is one (docs/twine.md).
public enum StorySources {
    /// `inkSeed` fixes an ink story's random seed (random otherwise).
    public static func open(_ argument: String, inkSeed: Int? = nil) async -> any StorySource {
        let lower = argument.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://"), let url = URL(string: argument) {
            return await remote(url, inkSeed: inkSeed)
        }
        if let ink = InkStorySource.local(argument, seed: inkSeed) { return ink }
        if let twine = TwineStorySource.local(argument, seed: inkSeed) { return twine }
        return FolderStorySource(folder: argument)
    }

    /// A story URL: `*.ink.json` is ink by its name; another `.json` or `.js` file, or a folder's usual ink
    /// names (`story.json`, then `story.js` when there is no story.json), are read once to know whether
    /// they are ink (the bytes are kept for the story, so the probe costs no extra request and waits as
    /// long as the story's own read would). A folder whose probe fails is a package, whose own read of
    /// story.json then says what is wrong; a named file whose probe fails stays that file (not a folder
    /// under it), so the error and any retry name the file the reader gave.
    static func remote(_ url: URL, inkSeed: Int?) async -> any StorySource {
        let package = HTTPStorySource(baseURL: url)
        let name = url.lastPathComponent
        let lower = name.lowercased()
        let isFile = lower.hasSuffix(".json") || lower.hasSuffix(".js")
        let folder = isFile ? HTTPStorySource(baseURL: url.deletingLastPathComponent()) : package
        if InkStorySource.isInkFile(name) { return InkStorySource(base: folder, file: name, seed: inkSeed) }
        if TwineFiles.mayBeTwine(name) {
            // A Twine file by its name; its content decides (a web page that is no story opens as a package and says so).
            let twineFolder = HTTPStorySource(baseURL: url.deletingLastPathComponent())
            if let bytes = try? await twineFolder.read(name), TwineFiles.holdsTwine(bytes) {
                return TwineStorySource(base: twineFolder, files: [name], seed: inkSeed, prefetched: bytes)
            }
            return package
        }
        var noneThere = !isFile
        for candidate in isFile ? [name] : InkFileFormat.usualNames {
            let bytes: [UInt8]
            do throws(StorySourceError) {
                bytes = try await folder.read(candidate)
            } catch {
                if case .notFound = error, !isFile { continue }
                noneThere = false
                // story.json named by the URL is a package's base URL unless its bytes say ink.
                if isFile, lower != "story.json" { return InkStorySource(base: folder, file: name, seed: inkSeed) }
                break
            }
            noneThere = false
            if InkFileFormat.json(in: bytes) != nil {
                return InkStorySource(base: folder, file: candidate, seed: inkSeed, prefetched: bytes)
            }
            break
        }
        // A folder with none of ink's names: a published Twine story or a Twee file by its usual name.
        if noneThere {
            for candidate in TwineFiles.usualNames {
                if let bytes = try? await package.read(candidate), TwineFiles.holdsTwine(bytes) {
                    return TwineStorySource(base: package, files: [candidate], seed: inkSeed, prefetched: bytes)
                }
            }
        }
        return package
    }

    /// The story a co-reading host serves as files of its own (`StoryFilesSource.storyFiles`) beside its
    /// pictures and sounds in `base`: Twine for Twee and HTML files, ink otherwise.
    public static func made(base: any StorySource, files: [String], seed: Int? = nil) -> any StorySource {
        if !files.isEmpty, files.allSatisfy(TwineFiles.mayBeTwine) { return TwineStorySource(base: base, files: files, seed: seed) }
        return InkStorySource(base: base, file: files.first ?? "", seed: seed)
    }
}
