import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaTerminal

/// `pajama list [folder]`: the stories of a folder as a table, as the library shows them (the most recently
/// read first: where the reader is, the endings found, when last read), with whether each validates.
struct ListCommand: PathsCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the stories in a folder.")

    @Argument(help: "The folder of stories (default $PAJAMA_STORIES, else ./Stories, else the installed stories and yours).")
    var folder: String?

    func run(paths: Paths) async throws {
        let library = StoryFolder.resolve(folder, paths: paths)
        if let folder = library.explicit, let problem = FolderStorySource.folderProblem(folder) {
            ReaderApp.printError("pajama: cannot list \(StoryFormatError.printable(folder)): \(problem)")
            throw ExitCode(2)
        }
        var entries = LibraryEntry.scan(library, progress: paths.progressStore, formats: .all)
        // A story's own folder (`pajama list Stories/lantern-keeper`): that story's row, and what the folder is.
        if let folder = library.explicit, entries.isEmpty, let story = LibraryEntry.entry(at: folder, progress: paths.progressStore, formats: .all) {
            ReaderApp.printError("pajama: \(StoryFormatError.printable(folder)) is a story, not a folder of stories (`pajama read \(StoryFormatError.printable(folder))` reads it)")
            entries = [story]
        }
        if entries.isEmpty {
            print("no stories in \(library.title)")
            return
        }
        var rows = [["id", "title", "author", "format", "where", "endings", "last read", "validates", "description"]]
        let now = Date()
        for entry in entries {
            var status = entry.readable ? "yes" : "no"
            if entry.readable {
                let report = await StoryValidator.validate(source: await StorySources.open(entry.folder), probe: LiveAssetProbe())
                status = report.errorCount == 0 ? "yes" : "no (\(report.errorCount) errors)"
            }
            let standing = entry.standing
            rows.append([entry.id, entry.title, entry.author ?? "", entry.format, entry.progress, standing.endings ?? "",
                         standing.lastReadText(now: now) ?? "never", status, entry.description ?? ""]
                .map { StoryFormatError.printable($0, limit: 60) })
        }
        let widths = (0..<rows[0].count).map { c in rows.map { DisplayWidth.of($0[c]) }.max() ?? 0 }
        for row in rows {
            print(row.enumerated().map { i, cell in cell + String(repeating: " ", count: widths[i] - DisplayWidth.of(cell)) }
                .joined(separator: "  ").trimmingSpaces)
        }
    }
}
