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
import PajamaTerminal

/// `pajama read <folder|URL>`: read one story.
struct ReadCommand: PathsCommand, LoggingCommand {
    static let configuration = CommandConfiguration(commandName: "read", abstract: "Read a story: a folder, a URL, an ink file or a Twine story, or an installed story's id.")

    @Argument(help: ArgumentHelp(
        "The story folder, its base URL (http:// or https://), an ink story (story.ink.json, or its URL), a Twine story (a published .html or a .twee file, or its URL), or the id of a story `pajama list` shows.",
        valueName: "story"))
    var story: String

    @Option(help: "Where to start: BEAT or BEAT/PAGE; begins a fresh history (replaces saved progress from there on).")
    var start: String?

    @Flag(help: "Forget saved progress and start from the beginning.")
    var restart = false

    @Option(help: "Open the bookmark (or autosave) with this name; replaces saved progress from there on.")
    var bookmark: String?

    @Option(help: "Append each page's text and each choice taken to this file, as plain UTF-8 text.")
    var transcript: String?

    @Flag(help: "The author's live preview: reload what changes in the story folder, validate it and show its problems.")
    var watch = false

    @OptionGroup var reading: ReadingOptions
    var logging: LoggingOptions { reading.logging }

    func validate() throws {
        if let start, Self.location(start) == nil { throw ValidationError("--start takes BEAT or BEAT/PAGE") }
        if start != nil, bookmark != nil { throw ValidationError("--start and --bookmark cannot be used together") }
        if watch, let why = Self.unwatchable(story) { throw ValidationError("--watch needs a story folder on this machine, and \(why)") }
    }

    /// Why `--watch` cannot watch `story` (a URL, a zip), or nil when it names a folder (or its story.json).
    static func unwatchable(_ story: String) -> String? {
        let lower = story.lowercased()
        if lower.contains("://") { return "\(StoryFormatError.printable(story)) is a URL (its files cannot be watched)" }
        if lower.hasSuffix(".zip") { return "\(StoryFormatError.printable(story)) is a zip (unpack it and watch the folder)" }
        return nil
    }

    static func location(_ text: String) -> (beat: String, page: String?)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), StoryManifest.isValidId(parts[0]) else { return nil }
        if parts.count == 2, parts[1].isEmpty { return nil }
        return (parts[0], parts.count == 2 ? parts[1] : nil)
    }

    func validate(paths: Paths) throws {
        try reading.checkTheme(paths: paths)
        try reading.checkVoice()
    }

    func run(paths: Paths) async throws {
        guard let story = StoryArgument.open(story, paths: paths) else { throw ExitCode(2) }
        // A folder of stories (`pajama read Stories`): its library opens, as `pajama Stories` would; with
        // options only a story takes, what the folder is and the commands are said instead.
        if !story.contains("://"), !FormatRegistry.all.isStoryFolder(story), FolderStorySource.folderProblem(story) == nil {
            let stories = LibraryEntry.scan(story, progress: paths.progressStore, formats: .all)
            if let first = stories.first {
                let shown = StoryFormatError.printable(story)
                if start != nil || bookmark != nil || transcript != nil || watch || restart {
                    let one = StoryFormatError.printable(PathText.lastComponent(first.folder))
                    ReaderApp.printError("pajama: \(shown) is a folder of \(stories.count) \(stories.count == 1 ? "story" : "stories"), not a story: "
                        + "`pajama \(shown)` shows them, `pajama read \(PathText.appending(shown, one))` reads one")
                    throw ExitCode(2)
                }
                let code = await ReaderApp.runLibrary(library: StoryFolder.resolve(story, paths: paths), options: reading.reader, paths: paths)
                if code != 0 { throw ExitCode(code) }
                return
            }
        }
        let code = await ReaderApp.runStory(
            story, start: start.flatMap(Self.location), restart: restart, bookmark: bookmark, transcript: transcript, watch: watch,
            options: reading.reader, paths: paths)
        if code != 0 { throw ExitCode(code) }
    }
}
