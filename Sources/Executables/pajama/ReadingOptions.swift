import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaAudio
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaTerminal

extension TerminalGraphics.Choice: ExpressibleByArgument {}

/// Options shared by `read` and the library.
struct ReadingOptions: ParsableArguments {
    @OptionGroup var logging: LoggingOptions

    @Option(help: "Colour theme (default, night, paper, mono, or one of yours, in $XDG_CONFIG_HOME/pajama/themes).")
    var theme: String?

    @Flag(help: "Read without sound.")
    var noSound = false

    @Flag(help: "Show cache hit rates, the preload window and load times in a side panel.")
    var stats = false

    @Flag(help: "Read each line aloud as it is revealed (espeak-ng; `v` turns it on and off while reading).")
    var readAloud = false

    @Option(help: "The espeak-ng voice that reads aloud (e.g. en, en-gb, fr; `espeak-ng --voices` lists them).")
    var voice: String?

    @Option(help: "How pictures are drawn: auto (in pixels where the terminal says it can: sixel or the kitty graphics protocol; else cells), cells, sixel or kitty.")
    var pictures: TerminalGraphics.Choice = .auto

    @Flag(help: "No timed text: each page shown whole at once, no auto-forward (`w` turns it on and off while reading, and remembers it).")
    var noTimedText = false

    @Flag(help: "Plain mode, for a screen reader or a braille display: the text as lines, the choices as a numbered list, a prompt for commands; no screen control. (Also what a pipe or TERM=dumb gets.)")
    var plain = false

    /// The options as the reader's wiring takes them.
    var reader: ReaderOptions {
        ReaderOptions(theme: theme, noSound: noSound, stats: stats, readAloud: readAloud, voice: voice, pictures: pictures,
                      noTimedText: noTimedText, plain: plain)
    }

    /// Refuses a voice espeak-ng does not have (only when one is named), naming how to list them.
    func checkVoice() throws {
        guard let voice else { return }
        if case .failure(let problem) = SpeechSynthesizer.shared(voice: voice) { throw ValidationError("--voice: \(problem)") }
    }

    /// Refuses a theme that is in none of the theme folders, naming the ones there are.
    func checkTheme(paths: Paths) throws {
        let folders = ThemeLibrary.searchPaths(paths)
        if let theme, ThemeLibrary.load(theme, paths: folders) == nil {
            let known = ThemeLibrary.names(in: folders).joined(separator: ", ")
            let yours = paths.config.appendingPathComponent("themes").path
            throw ValidationError("no theme named \"\(StoryFormatError.printable(theme))\" (themes: \(known); yours go in \(yours))")
        }
    }
}
