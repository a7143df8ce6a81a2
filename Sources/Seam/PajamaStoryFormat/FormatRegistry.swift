import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel

/// Every story format the program reads, in the order they are asked (`PajamaFormats.registry` lists
/// them; tests make their own). The one place that decides which format a path, a URL or a co-reading
/// welcome is: the library, `read`, `play`, `validate`, `install-story` and the host ask it.
public struct FormatRegistry: Sendable {
    public let formats: [any StoryFormat]

    public init(_ formats: [any StoryFormat]) {
        self.formats = formats
    }

    /// What a story given as one file may be, for messages: "a compiled ink file (.ink.json) or a Twine
    /// story (.twee, .tw, a published .html)".
    /// The file names a folder of a story is looked for by, over every format, each once (Twine and
    /// SugarCube share theirs), in the registry's order.
    public var usualNames: [String] {
        var names: [String] = []
        for name in formats.flatMap(\.usualNames) where !names.contains(name) { names.append(name) }
        return names
    }

    public var storyFileKinds: String {
        let kinds = formats.compactMap(\.fileKind)
        guard let last = kinds.last else { return "a story folder" }
        return kinds.count == 1 ? last : kinds.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The format called `name`, nil when none is.
    public func format(named name: String) -> (any StoryFormat)? {
        formats.first { $0.name == name }
    }

    /// The story on disk at `path` (a file or a folder), by the first format that finds one there.
    public func find(at path: String) -> FoundStory? {
        for format in formats {
            if let story = format.find(at: path) { return story }
        }
        return nil
    }

    /// Whether the folder at `path` is one story (not a folder of stories).
    public func isStoryFolder(_ path: String) -> Bool {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder else { return false }
        return find(at: path) != nil
    }

    /// A local story argument opened: the story a format finds at `path`, else the folder as a package
    /// (whose reads then say what is wrong: no such folder, a file, no story.json).
    public func openLocal(_ path: String, seed: Int? = nil) -> any StorySource {
        find(at: path)?.open(seed: seed) ?? FolderStorySource(folder: path)
    }

    /// The format of the files a co-reading host named, by name (the welcome's `format`), else by the
    /// files' names (a host of an earlier version), else none.
    public func format(named name: String?, files: [String]) -> (any StoryFormat)? {
        if let name, let format = format(named: name) { return format }
        guard let first = files.first else { return nil }
        return formats.first { $0.claims(fileName: first) } ?? formats.first { format in files.allSatisfy(format.mayHold(fileName:)) }
    }

    // MARK: A story URL

    /// The story at a URL: `folderSource` makes the source of a folder URL (the transport's, with its
    /// client and limits). A file the URL names is read once to know its format (its bytes are kept for the
    /// story, so the probe costs no second request); a folder URL is tried for each format's usual names,
    /// in order, and the first file there decides. A folder with none of them is a package (whose own read
    /// of story.json then says what is wrong); a named file no format holds is read as a package's
    /// story.json (`story.json`) or reported for that file.
    public func openRemote(_ url: URL, seed: Int? = nil, folderSource: (URL) -> any StorySource) async -> any StorySource {
        let package = folderSource(url)
        let name = url.lastPathComponent
        let namesFile = formats.contains { $0.mayHold(fileName: name) } && !url.hasDirectoryPath
        guard namesFile else { return await openFolder(package, seed: seed) }
        let folder = folderSource(url.deletingLastPathComponent())
        if let format = formats.first(where: { $0.claims(fileName: name) }) {
            return format.open(base: folder, files: [name], seed: seed, prefetched: nil)
        }
        let bytes: [UInt8]
        do throws(StorySourceError) {
            bytes = try await folder.read(name)
        } catch {
            // story.json is a package's base URL unless its bytes say otherwise; another file is reported as
            // itself by the first format that may hold it.
            if name.lowercased() == "story.json" { return package }
            return formats.first { $0.mayHold(fileName: name) }!.open(base: folder, files: [name], seed: seed, prefetched: nil)
        }
        if let format = formats.first(where: { $0.mayHold(fileName: name) && $0.holds(bytes, fileName: name) }) {
            return format.open(base: folder, files: [name], seed: seed, prefetched: bytes)
        }
        return package
    }

    /// A folder URL: the first of the formats' usual names the server has decides.
    private func openFolder(_ package: any StorySource, seed: Int?) async -> any StorySource {
        for format in formats {
            for candidate in format.usualNames {
                let bytes: [UInt8]
                do throws(StorySourceError) {
                    bytes = try await package.read(candidate)
                } catch {
                    if case .notFound = error { continue }
                    return package
                }
                if let holder = formats.first(where: { $0.mayHold(fileName: candidate) && $0.holds(bytes, fileName: candidate) }) {
                    return holder.open(base: package, files: [candidate], seed: seed, prefetched: bytes)
                }
                return package
            }
        }
        return package
    }
}
