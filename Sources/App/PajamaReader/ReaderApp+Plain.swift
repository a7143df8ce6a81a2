import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaTerminal

/// Plain mode: the reading as lines of text and a prompt, for a screen reader, a braille display, a pipe
/// or a terminal that cannot move the cursor (docs/reader.md, "Plain mode").
extension ReaderApp {
    /// Whether the reading is shown in plain mode: asked for (`--plain`), or the full screen is impossible
    /// (standard input or output is not a terminal, or the terminal cannot move the cursor).
    public static func readsPlain(_ options: ReaderOptions) -> Bool {
        options.plain || isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 || TerminalCapabilities.current().fullScreenProblem != nil
    }

    /// Runs `body` with the quit signals trapped (SIGINT, SIGTERM, SIGHUP end the reading as `q` does) and
    /// SIGPIPE ignored (a reader of the output that went away must not lose the progress); the terminal is
    /// never touched.
    static func plainSession<Result>(_ body: (QuitSignals) async -> Result) async -> Result {
        signal(SIGPIPE, SIG_IGN)
        let signals = QuitSignals()
        await signals.start()
        defer { signals.stop() }
        return await body(signals)
    }

    /// One reading in plain mode; as `read` for the full screen.
    static func readPlain(
        _ content: StoryContentManager, signals: QuitSignals, sound: PulseSoundEngine?, start: StoryLocation?, restart: Bool,
        bookmark: Bookmark? = nil, options: ReaderOptions, paths: Paths, coReading: CoReadingSide? = nil,
        transcript: TranscriptRecorder? = nil, input: PlainInput
    ) async -> ReaderController.Outcome {
        let client = sound.map(SoundClient.live)
        let viewModel = ReaderViewModel(content: content, sound: client, progress: paths.progressStore,
                                        bookmarks: paths.bookmarkStore)
        // No timed text (the flag, or the setting `w` saved): each page whole, here too.
        viewModel.revealsWholePages = options.noTimedText || !ReaderSettings.load(from: paths.readerSettings, files: paths.files).hasTimedText
        transcript?.follow(viewModel)
        let readAloud = makeReadAloud(options, sound: sound)
        readAloud?.follow(viewModel.events())
        let reader = PlainReader(
            viewModel: viewModel, input: input, write: writePlain, role: coReading?.role ?? .solo, readAloud: readAloud,
            soundOn: sound != nil, signals: signals, echoesInput: isatty(STDIN_FILENO) != 1,
            statusPages: content.source as? any StatusPageSource)
        let link = coReading.map { CoReadingWiring(side: $0, viewModel: viewModel, controller: reader, content: content) }
        let outcome = await reader.run(start: start, restart: restart, bookmark: bookmark)
        link?.close()
        readAloud?.finish()
        await viewModel.close()
        return outcome
    }

    /// Writes `text` to standard output at once (no buffering: a screen reader says it as it comes); a
    /// reader of the output that went away (EPIPE) loses the rest, and the reading goes on.
    static func writePlain(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The library in plain mode: the stories as a numbered list; a number reads one, then the list again.
    static func plainLibrary(
        _ folders: LibraryFolders, signals: QuitSignals, sound: PulseSoundEngine?, progress: ProgressStore, options: ReaderOptions, paths: Paths,
        input: PlainInput
    ) async -> Int32? {
        let echoes = isatty(STDIN_FILENO) != 1
        signals.onSignal = { input.close() }
        while signals.received == nil {
            let entries = LibraryEntry.scan(folders, progress: progress, formats: .all)
            writePlain("\n" + UntrustedText.sanitize(folders.title) + "\n")
            if entries.isEmpty { writePlain(UntrustedText.sanitize(folders.emptyHint) + "\n") }
            for (index, entry) in entries.enumerated() {
                let read = entry.standing.lastReadText(now: Date()).map { ["read \($0)"] } ?? []
                let details = (entry.details(description: false) + read).joined(separator: " · ")
                writePlain("  \(index + 1). \(UntrustedText.sanitize(entry.title)) (\(UntrustedText.sanitize(details)))\n")
            }
            writePlain(entries.isEmpty ? "q quits. > " : "Read which story? (1-\(entries.count), q quits) > ")
            guard let line = await input.nextLine() else { break }
            if echoes { writePlain(line + "\n") }
            let text = line.trimmingSpaces.lowercased()
            if text == "q" || text == "quit" { break }
            guard let number = Int(text), entries.indices.contains(number - 1) else {
                if !text.isEmpty { writePlain("Type a story's number, or q.\n") }
                continue
            }
            let entry = entries[number - 1]
            guard entry.readable else {
                writePlain("Cannot open \(UntrustedText.sanitize(entry.title)): \(UntrustedText.sanitize(entry.problem ?? ""))\n")
                continue
            }
            do {
                defer { signals.onSignal = { input.close() } }  // the story's reader had its own
                let content = try await open(await StorySources.open(entry.folder), sound: sound, paths: paths)
                _ = await readPlain(content, signals: signals, sound: sound, start: nil, restart: false, options: options, paths: paths,
                                    input: input)
                await content.clearSounds()
            } catch {
                writePlain("Cannot open \(UntrustedText.sanitize(entry.title)): \(UntrustedText.sanitize("\(error)"))\n")
            }
        }
        return signals.received
    }
}
