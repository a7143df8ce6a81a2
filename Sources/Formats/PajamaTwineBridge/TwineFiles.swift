import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaTwine

/// Which files are a Twine story (docs/twine.md, "Which files are Twine"): a `.twee` or `.tw` file (Twee 3
/// source) or an `.html`/`.htm` file holding `<tw-storydata>` (what Twine publishes); a folder holding
/// `.twee`/`.tw` files (all of them, in name order, then those in its subfolders by path, are one story, as
/// Tweego builds them), else one published
/// HTML file (`index.html` or `story.html` first, else the only one); never a folder with a `story.json`.
public enum TwineFiles {
    /// The names a folder URL is tried for (a web server cannot list a folder), in order.
    public static let usualNames = ["index.html", "story.html", "story.twee"]

    /// True for a name a Twine story may have.
    public static func mayBeTwine(_ name: String) -> Bool {
        let lower = name.lowercased()
        return isTwee(lower) || lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }

    static func isTwee(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".twee") || lower.hasSuffix(".tw")
    }

    /// The folder and the files of the Twine story a local `path` names, nil when it names none.
    public static func files(at path: String) -> (folder: String, files: [String])? {
        let url = URL(fileURLWithPath: path)
        var isFolder = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return nil }
        if !isFolder {
            let name = url.lastPathComponent
            guard mayBeTwine(name), hasTwineContent(url.path) else { return nil }
            return (url.deletingLastPathComponent().path, [name])
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path), !names.contains("story.json") else {
            return nil  // a folder with a story.json is a package (or an ink story), whatever else it holds
        }
        let visible = names.filter { !$0.hasPrefix(".") }.sorted()
        let twee = visible.filter { isTwee($0) && hasTwineContent(url.appendingPathComponent($0).path) }
        if !twee.isEmpty { return (url.path, twee + tweeBelow(url, in: visible)) }
        let pages = visible.filter { let lower = $0.lowercased(); return lower.hasSuffix(".html") || lower.hasSuffix(".htm") }
        let published = pages.filter { hasTwineContent(url.appendingPathComponent($0).path) }
        if let usual = ["index.html", "story.html"].first(where: published.contains) { return (url.path, [usual]) }
        return published.count == 1 ? (url.path, published) : nil
    }

    /// The most Twee files read below a Tweego project's folder, and how deep.
    static let maximumTweeFiles = 2000
    static let maximumTweeDepth = 8

    /// The `.twee`/`.tw` files in the subfolders of `folder` (as Tweego reads a project's source folder),
    /// by their paths relative to it, in path order; hidden folders and a folder holding a story.json skipped.
    static func tweeBelow(_ folder: URL, in names: [String]) -> [String] {
        var found: [String] = []
        func walk(_ relative: String, _ names: [String], depth: Int) {
            for name in names where !name.hasPrefix(".") && found.count < maximumTweeFiles {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = folder.appendingPathComponent(path)
                var isFolder = false
                guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isFolder) else { continue }
                if isFolder {
                    guard depth < maximumTweeDepth, let inner = try? FileManager.default.contentsOfDirectory(atPath: full.path), !inner.contains("story.json") else { continue }
                    walk(path, inner.sorted(), depth: depth + 1)
                } else if !relative.isEmpty, isTwee(name), hasTwineContent(full.path) {
                    found.append(path)
                }
            }
        }
        walk("", names, depth: 0)
        return found
    }

    /// Whether `bytes` hold a Twine story whose story format is SugarCube (played by PajamaSugarCubeBridge's
    /// format, not by `TwineFormat`).
    public static func holdsSugarCube(_ bytes: [UInt8]) -> Bool {
        guard let story = try? TwineFileKind.parse(String(decoding: bytes, as: UTF8.self)) else { return false }
        return story.formatKind == .sugarCube
    }

    /// The bytes of `files` in `folder`, one after another (each followed by a line break), as a story reads them.
    public static func bytes(of files: [String], in folder: String) -> [UInt8] {
        let base = FolderStorySource(folder: folder)
        var bytes: [UInt8] = []
        for file in files { bytes += ((try? base.readSync(file)) ?? []) + [0x0A] }
        return bytes
    }

    /// Whether `bytes` hold a Twine story (a passage header, or `<tw-storydata>`).
    public static func holdsTwine(_ bytes: [UInt8]) -> Bool { TwineFileKind.of(String(decoding: bytes, as: UTF8.self)) != nil }

    /// The pictures and sounds a Twine file names (`<img src>`, `<audio src>`), with paths a package may hold:
    /// what a co-reading host serves beside the file.
    public static func assets(in bytes: [UInt8]) -> [AssetPath] {
        guard let story = try? TwineFileKind.parse(String(decoding: bytes, as: UTF8.self)) else { return [] }
        let scan = TwineScan(story)
        return Array(Set(scan.passages.flatMap { $0.images + $0.sounds }.compactMap { try? AssetPath(validating: $0) })).sorted()
    }

    /// The largest Twine file read.
    static let maximumFileSize = 16 * 1024 * 1024

    /// Whether the file holds a Twine story (a passage header, or `<tw-storydata>`).
    static func hasTwineContent(_ path: String) -> Bool {
        guard case .bytes(let data) = RegularFile.read(path, limit: maximumFileSize) else { return false }
        return TwineFileKind.of(String(decoding: data, as: UTF8.self)) != nil
    }

    /// The name a story is known by when it has no title: the file's stem, or for a usual name (`index`,
    /// `story`, `main`, `game`) or several files, the folder's.
    public static func name(files: [String], location: String) -> String {
        let file = files.first ?? "story"
        let stem = PathText.deletingExtension(file)
        guard files.count > 1 || ["index", "story", "main", "game", "source"].contains(stem.lowercased()) else { return stem }
        var trimmed = Substring(location)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let folder = trimmed.split(separator: "/").last.map(String.init) ?? ""
        return folder.isEmpty || folder.contains(":") ? stem : (folder.percentDecoded ?? folder)
    }
}
