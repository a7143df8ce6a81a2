import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaStoryFormat

/// One story of the library, with the reader's progress in it.
public struct LibraryEntry: Sendable, Equatable {
    public var folder: String
    public var id: String
    public var title: String
    public var author: String?
    public var beatCount: Int?
    /// What the story is written in: "Pajama" (a story package), "ink" or "Twine".
    public var format: String
    /// The story's own description, when it has one.
    public var description: String?
    /// Where the reader stands: the place, the endings found, when last read.
    public var standing: LibraryStanding
    public var readable: Bool
    /// Why the story cannot be opened (when it cannot).
    public var problem: String?

    public init(folder: String, id: String, title: String, author: String? = nil, beatCount: Int? = nil, format: String,
                description: String? = nil, standing: LibraryStanding, readable: Bool = true, problem: String? = nil) {
        self.folder = folder
        self.id = id
        self.title = title
        self.author = author
        self.beatCount = beatCount
        self.format = format
        self.description = description
        self.standing = standing
        self.readable = readable
        self.problem = problem
    }

    /// "new", `at “Chapter”`, "35% seen", "finished", or "cannot open".
    public var progress: String { readable ? standing.place : "cannot open" }

    /// The story's row details, as the library's second line and `pajama list` show them:
    /// the format, the place, the endings (and the description, when `description` is true).
    public func details(description withDescription: Bool) -> [String] {
        guard readable else { return [format, "cannot open: \(problem ?? "")"] }
        return [format, standing.place] + [standing.endings, withDescription ? description : nil].compactMap { $0 }
    }

    /// Most recently read first; stories never read after them, by title.
    static func byLastRead(_ a: LibraryEntry, _ b: LibraryEntry) -> Bool {
        switch (a.standing.lastRead, b.standing.lastRead) {
        case (let x?, let y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.title.precedesNaturally(b.title)
        }
    }

    /// Every story folder (a folder with a story.json) under `folder`, the most recently read first.
    public static func scan(_ folder: String, progress: ProgressStore, formats: FormatRegistry) -> [LibraryEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let entries = names.sorted().filter { !$0.hasPrefix(".") }.compactMap {
            entry(at: PathText.appending(folder, $0), progress: progress, formats: formats)
        }
        return entries.sorted(by: byLastRead)
    }

    /// The story in the folder at `path`, nil when it is not a story folder (no format finds a story there).
    public static func entry(at path: String, progress: ProgressStore, formats: FormatRegistry) -> LibraryEntry? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory,
              let story = formats.find(at: path) else { return nil }
        let name = PathText.lastComponent(path)
        let format = shownName(of: story.format)
        do {
            let manifest = try story.manifest()
            let saved = progress.load(storyId: manifest.id).progress
            // A package's beats are files (a story made as it is read has none): read to count its endings
            // and pages and to find the chapter.
            let source = FolderStorySource(folder: story.folder)
            let beats: ((String) -> Beat?)? = story.files.isEmpty ? { id in
                guard StoryManifest.isValidId(id), let bytes = try? source.readSync("beats/\(id).json") else { return nil }
                return try? StoryDecoder.decodeBeat(bytes, file: "beats/\(id).json", expectedId: id)
            } : nil
            let standing = LibraryStanding.of(saved, lastRead: saved == nil ? nil : progress.lastSaved(storyId: manifest.id),
                                              manifest: manifest, beats: beats)
            return LibraryEntry(folder: path, id: manifest.id, title: manifest.title, author: manifest.author,
                                beatCount: manifest.beats?.count, format: format, description: manifest.description, standing: standing)
        } catch {
            return LibraryEntry(folder: path, id: name, title: name, format: format, standing: LibraryStanding(place: "cannot open"),
                                readable: false, problem: "\(error)")
        }
    }

    /// A format's name as the library shows it (`StoryFormat.displayName`): "Pajama" (a story package), "ink",
    /// "Twine", "ChoiceScript".
    static func shownName(of format: any StoryFormat) -> String { format.displayName }

    /// Every story of the library's folders, the most recently read first; a story id found in an earlier folder hides
    /// the same id in a later one (the reader's own copy hides the bundled one).
    public static func scan(_ library: LibraryFolders, progress: ProgressStore, formats: FormatRegistry) -> [LibraryEntry] {
        var ids = Set<String>()
        var entries: [LibraryEntry] = []
        for folder in library.folders {
            for entry in scan(folder.path, progress: progress, formats: formats) where !entry.readable || ids.insert(entry.id).inserted {
                entries.append(entry)
            }
        }
        return entries.sorted(by: byLastRead)
    }

    /// The library screen. `emptyHint` is what it says with no story (by default, to put folders in `folder`).
    /// A notice wider than the screen is wrapped onto the rows above the status line (at most half the
    /// screen), never cut at the edge. Each story takes two rows: its title and byline with when it was
    /// last read, then its format, where the reader is, the endings found and its description.
    public static func render(
        _ entries: [LibraryEntry], selected: Int, folder: String, width: Int, height: Int, notice: String?, emptyHint: String? = nil,
        now: Date = Date()
    ) -> CellGrid {
        var grid = CellGrid(width: width, height: height)
        guard width >= PageRenderer.minimumSize.width, height >= PageRenderer.minimumSize.height else {
            grid.put("terminal too small", x: 0, y: 0, style: Style(.error))
            return grid
        }
        grid.fill(y: 0, style: Style(.status))
        grid.put(" Pajama — stories in \(folder)", x: 0, y: 0, style: Style(.status))
        grid.fill(y: height - 1, style: Style(.status))
        var noticeRows: [String] = []
        if let notice {
            noticeRows = TextWrapper.wrap(DisplayWidth.sanitize(notice.trimmingSpaces), width: width - 2)
            let most = max(1, (height - 2) / 2)
            if noticeRows.count > most {
                let rest = noticeRows[(most - 1)...].joined(separator: " ")
                noticeRows = Array(noticeRows.prefix(most - 1)) + [TextWrapper.clip(rest, width: width - 3) + "…"]
            }
        }
        let bottom = height - noticeRows.count  // the status line, or the notice's first row
        for (i, row) in noticeRows.enumerated() {
            grid.fill(y: bottom + i, style: Style(.status))
            grid.put(" " + row, x: 0, y: bottom + i, style: Style(.status))
        }
        if noticeRows.isEmpty { grid.put(" ↑ ↓ choose · Enter read · q quit", x: 0, y: height - 1, style: Style(.status)) }
        if entries.isEmpty {
            grid.put(emptyHint ?? "No stories here. Put story folders in \(folder) or set PAJAMA_STORIES.", x: 2, y: 2, style: Style(.dim), maxWidth: width - 4)
            return grid
        }
        let rows = max(1, height - 4 - max(0, noticeRows.count - 1))
        let visible = max(1, rows / 2)
        let first = max(0, min(selected - visible / 2, entries.count - visible))
        for (row, index) in (first..<min(entries.count, first + visible)).enumerated() {
            let entry = entries[index]
            let style = Style(index == selected ? .selected : entry.readable ? .text : .error)
            let y = 2 + row * 2
            if index == selected {
                grid.fill(y: y, from: 1, to: width - 1, style: style)
                if y + 1 < bottom - 1 { grid.fill(y: y + 1, from: 1, to: width - 1, style: style) }
            }
            let right = entry.readable ? entry.standing.lastReadText(now: now).map { "read \($0)" } ?? "new" : "cannot open"
            let rightWidth = min(DisplayWidth.of(DisplayWidth.sanitize(right)), width / 3)
            let byline = entry.author.map { "  by \($0)" } ?? ""
            grid.put((index == selected ? "› " : "  ") + entry.title + byline, x: 2, y: y, style: style, maxWidth: width - rightWidth - 6)
            grid.put(right, x: width - rightWidth - 2, y: y, style: style, maxWidth: rightWidth)
            if y + 1 < bottom - 1 {
                let details = entry.details(description: true).map { DisplayWidth.sanitize($0) }.joined(separator: " · ")
                grid.put(details, x: 6, y: y + 1, style: index == selected ? style : Style(entry.readable ? .dim : .error), maxWidth: width - 8)
            }
        }
        return grid
    }
}
