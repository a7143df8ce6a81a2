import ArgumentParser
import PajamaLoading
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaTerminal

/// `pajama` / `pajama library [folder]`: pick a story and read it.
struct LibraryCommand: PathsCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Show the stories of a folder and read one.",
        discussion: """
            Without a folder: $PAJAMA_STORIES, else ./Stories, else the stories installed with pajama and your own \
            (those pajama install-story put in $XDG_DATA_HOME/pajama/stories).
            """)

    @Argument(help: "The folder of stories.")
    var folder: String?

    @OptionGroup var reading: ReadingOptions
    var logging: LoggingOptions { reading.logging }

    func validate(paths: Paths) throws { try reading.checkTheme(paths: paths) }

    func run(paths: Paths) async throws {
        // A folder named on the command line must be there; the default (./Stories) may be missing: the
        // library then says where to put stories.
        if let folder, let problem = FolderStorySource.folderProblem(folder) {
            ReaderApp.printError("pajama: cannot open the library \(StoryFormatError.printable(folder)): \(problem)")
            throw ExitCode(2)
        }
        // A story's own folder (`pajama Stories/lantern-keeper`): the story is read, as `pajama read` would.
        if let folder, FormatRegistry.all.isStoryFolder(folder) {
            let code = await ReaderApp.runStory(folder, start: nil, restart: false, transcript: nil, options: reading.reader, paths: paths)
            if code != 0 { throw ExitCode(code) }
            return
        }
        let code = await ReaderApp.runLibrary(library: StoryFolder.resolve(folder, paths: paths), options: reading.reader, paths: paths)
        if code != 0 { throw ExitCode(code) }
    }
}
