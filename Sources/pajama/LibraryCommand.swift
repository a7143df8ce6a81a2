import ArgumentParser
import PajamaCore

/// `pajama` / `pajama library [folder]`: pick a story and read it.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Show the stories of a folder (default ./Stories or $PAJAMA_STORIES) and read one.")

    @Argument(help: "The folder of stories.")
    var folder: String?

    @OptionGroup var reading: ReadingOptions

    func run() async throws {
        let code = await ReaderApp.runLibrary(folder: StoryFolder.resolve(folder), options: reading)
        if code != 0 { throw ExitCode(code) }
    }
}
