import Foundation
import PajamaCore
import PajamaStoryFormat

/// One story of the library, with the reader's progress in it.
public struct LibraryEntry: Sendable, Equatable {
    public var folder: String
    public var id: String
    public var title: String
    public var author: String?
    public var beatCount: Int?
    /// "new", "page 12", "finished", or "cannot open".
    public var progress: String
    public var readable: Bool
    /// Why the story cannot be opened (when it cannot).
    public var problem: String?

    /// Every story folder (a folder with a story.json) under `folder`, sorted by title.
    public static func scan(_ folder: String, progress: ProgressStore, formats: FormatRegistry) -> [LibraryEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let entries = names.sorted().filter { !$0.hasPrefix(".") }.compactMap {
            entry(at: (folder as NSString).appendingPathComponent($0), progress: progress, formats: formats)
        }
        return entries.sorted { $0.title.localizedCaseInsensitiveCompare($1.title) == .orderedAscending }
    }

    /// The story in the folder at `path`, nil when it is not a story folder (no format finds a story there).
    public static func entry(at path: String, progress: ProgressStore, formats: FormatRegistry) -> LibraryEntry? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              let story = formats.find(at: path) else { return nil }
        let name = (path as NSString).lastPathComponent
        do {
            let manifest = try story.manifest()
            let saved = progress.load(storyId: manifest.id).progress
            let state: String
            if let saved {
                state = saved.finished ? "finished" : "page \(max(1, saved.pagesRead))"
            } else {
                state = "new"
            }
            return LibraryEntry(folder: path, id: manifest.id, title: manifest.title, author: manifest.author,
                                beatCount: manifest.beats?.count, progress: state, readable: true)
        } catch {
            return LibraryEntry(folder: path, id: name, title: name, author: nil, beatCount: nil,
                                progress: "cannot open", readable: false, problem: "\(error)")
        }
    }

    /// Every story of the library's folders, sorted by title; a story id found in an earlier folder hides
    /// the same id in a later one (the reader's own copy hides the bundled one).
    public static func scan(_ library: LibraryFolders, progress: ProgressStore, formats: FormatRegistry) -> [LibraryEntry] {
        var ids = Set<String>()
        var entries: [LibraryEntry] = []
        for folder in library.folders {
            for entry in scan(folder.path, progress: progress, formats: formats) where !entry.readable || ids.insert(entry.id).inserted {
                entries.append(entry)
            }
        }
        return entries.sorted { $0.title.localizedCaseInsensitiveCompare($1.title) == .orderedAscending }
    }

    /// The library screen. `emptyHint` is what it says with no story (by default, to put folders in `folder`).
    /// A notice wider than the screen is wrapped onto the rows above the status line (at most half the
    /// screen), never cut at the edge.
    public static func render(
        _ entries: [LibraryEntry], selected: Int, folder: String, width: Int, height: Int, notice: String?, emptyHint: String? = nil
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
            noticeRows = TextWrapper.wrap(DisplayWidth.sanitize(notice.trimmingCharacters(in: .whitespaces)), width: width - 2)
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
        let visible = max(1, height - 4 - max(0, noticeRows.count - 1))
        let first = max(0, min(selected - visible / 2, entries.count - visible))
        for (row, index) in (first..<min(entries.count, first + visible)).enumerated() {
            let entry = entries[index]
            let style = Style(index == selected ? .selected : entry.readable ? .text : .error)
            let y = 2 + row
            if index == selected { grid.fill(y: y, from: 1, to: width - 1, style: style) }
            let right = entry.progress
            let rightWidth = min(DisplayWidth.of(DisplayWidth.sanitize(right)), width / 3)
            let byline = entry.author.map { "  by \($0)" } ?? ""
            grid.put((index == selected ? "› " : "  ") + entry.title + byline, x: 2, y: y, style: style, maxWidth: width - rightWidth - 6)
            grid.put(right, x: width - rightWidth - 2, y: y, style: style, maxWidth: rightWidth)
        }
        return grid
    }
}
