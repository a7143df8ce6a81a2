import FoundationEssentials
import Glibc
import PajamaBasics
import Logging
import PajamaAudio
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaImage
import PajamaTerminal

/// Runs the terminal UI: the library and reading sessions, on the main actor, with the terminal
/// always restored (quit, Ctrl-C, SIGTERM, SIGHUP, crash signals).
@MainActor
public enum ReaderApp {
    /// `pajama read`: one story on `display`; returns the exit code.
    public static func runStory(
        _ argument: String, start: (beat: String, page: String?)?, restart: Bool, bookmark name: String? = nil, transcript: String?,
        watch: Bool = false, options: ReaderOptions, paths: Paths, display: ReaderDisplay = .processTerminal
    ) async -> Int32 {
        if watch, display.resolvesPlain(options) {
            printError("pajama: --watch needs a full-screen terminal (not plain mode, a pipe or TERM=dumb)")
            return 64
        }
        guard let shown = display.resolve(options) else { return 64 }
        var recorder: TranscriptRecorder?
        if let transcript {
            do {
                recorder = TranscriptRecorder(file: try TranscriptFile(path: transcript))
            } catch {
                printError("pajama: \(error)")
                return 2
            }
        }
        return await withReading(argument, options: options, paths: paths) { session in
            let (source, sound, content) = (session.source, session.sound, session.content)
            // The folder is watched from before the screen opens: a folder that cannot be watched exits 2, saying why.
            var watcher: FolderWatcher?
            if watch {
                do {
                    let folderWatcher = try FolderWatcher(folder: source.location)
                    session.onClose { await folderWatcher.close() }
                    watcher = folderWatcher
                } catch {
                    printError("pajama: --watch: \(error)")
                    return 2
                }
            }
            // A requested start is checked before the screen opens: a typo exits naming what exists.
            var location: StoryLocation?
            if let start {
                do throws(StartLocation.Problem) {
                    location = try await StartLocation.resolve(beat: start.beat, page: start.page, in: content)
                } catch {
                    printError("pajama: --start \(StoryFormatError.printable(start.page.map { start.beat + "/" + $0 } ?? start.beat)): \(error)")
                    return error.isUsageError ? 64 : 2
                }
            }
            // So is a bookmark's name: an unknown one exits naming the story's bookmarks.
            var bookmark: Bookmark?
            if let name {
                let (file, warning) = paths.bookmarkStore.load(storyId: content.manifest.id)
                if let warning { printError("pajama: \(warning)") }
                bookmark = file.named(name)
                if bookmark == nil {
                    let known = file.names.isEmpty ? "the story has no bookmarks yet" : "its bookmarks are: " + file.names.map { "\"\($0)\"" }.joined(separator: ", ")
                    printError("pajama: --bookmark \"\(StoryFormatError.printable(name))\": no such bookmark in \(content.manifest.id); \(known)")
                    return 2
                }
            }
            let outcome = await shown.present(options: options, paths: paths) { screen in
                await read(content, screen: screen, sound: sound, start: location, restart: restart, bookmark: bookmark,
                           options: options, paths: paths, transcript: recorder, watcher: watcher)
            } plain: { signals, input in
                await readPlain(content, signals: signals, sound: sound, start: location, restart: restart, bookmark: bookmark,
                                options: options, paths: paths, transcript: recorder, input: input)
            }
            if let problem = recorder?.finish() { printError("pajama: \(problem) (the reading went on without it)") }
            return ScreenSession.exitCode(outcome)
        }
    }

    /// `pajama` / `pajama library`: pick stories until the reader quits.
    public static func runLibrary(
        library folders: LibraryFolders, options: ReaderOptions, paths: Paths, display: ReaderDisplay = .processTerminal
    ) async -> Int32 {
        guard let shown = display.resolve(options) else { return 64 }
        let progress = paths.progressStore
        let sound = makeSound(options, paths: paths)
        let pendingSignal = await shown.present(options: options, paths: paths) { screen in
            await library(folders, screen: screen, sound: sound, progress: progress, options: options, paths: paths)
        } plain: { signals, input in
            await plainLibrary(folders, signals: signals, sound: sound, progress: progress, options: options, paths: paths, input: input)
        }
        if let sound { await sound.shutdown() }
        if let number = pendingSignal { return 128 + number }
        return 0
    }

    /// The library's own loop: pick stories until the reader quits; returns the quit signal that ended it, if any.
    private static func library(
        _ folders: LibraryFolders, screen: any ReaderTerminal, sound: PulseSoundEngine?, progress: ProgressStore, options: ReaderOptions, paths: Paths
    ) async -> Int32? {
        var selected = 0
        var notice: String?
        var entries = LibraryEntry.scan(folders, progress: progress, formats: .all)
        var dirty = true
        var lastSize = (screen.width, screen.height)
        loop: while screen.quitSignal == nil {
            while let key = screen.readKey() {
                dirty = true
                notice = nil
                switch key {
                case .up, .character("k"): if !entries.isEmpty { selected = (selected + entries.count - 1) % entries.count }
                case .down, .character("j"): if !entries.isEmpty { selected = (selected + 1) % entries.count }
                case .character("q"), .escape: break loop
                case .resize: screen.invalidate()
                case .enter, .right, .character(" "), .character("l"):
                    guard entries.indices.contains(selected) else { break }
                    let entry = entries[selected]
                    guard entry.readable else { notice = "cannot open \(entry.title): \(entry.problem ?? "")"; break }
                    do {
                        let content = try await open(await StorySources.open(entry.folder), sound: sound, paths: paths)
                        _ = await read(content, screen: screen, sound: sound, start: nil, restart: false, options: options, paths: paths)
                        await content.clearSounds()
                    } catch {
                        notice = "cannot open \(entry.title): \(error)"
                    }
                    if screen.quitSignal != nil { break loop }
                    entries = LibraryEntry.scan(folders, progress: progress, formats: .all)
                    screen.invalidate()
                default: break
                }
            }
            if (screen.width, screen.height) != lastSize { lastSize = (screen.width, screen.height); dirty = true }
            if dirty {
                screen.draw(LibraryEntry.render(entries, selected: selected, folder: folders.title, width: screen.width, height: screen.height, notice: notice,
                                                  emptyHint: folders.emptyHint))
                dirty = false
            }
            await screen.waitForInput(timeout: .seconds(1))
        }
        return screen.quitSignal
    }

    // MARK: Pieces

    /// Opens the story `argument` names (a folder or a URL) with the sound `options` ask for; on failure says
    /// why on standard error, lets the sound server go and returns nil (the caller exits 2).
    static func openStory(
        _ argument: String, options: ReaderOptions, paths: Paths
    ) async -> (source: any StorySource, sound: PulseSoundEngine?, content: StoryContentManager)? {
        let source = await StorySources.open(argument)
        let sound = makeSound(options, paths: paths)
        do {
            return (source, sound, try await open(source, sound: sound, paths: paths))
        } catch {
            printError("pajama: cannot open \(StoryFormatError.printable(argument)): \(error)")
            if let sound { await sound.shutdown() }
            return nil
        }
    }

    /// The terminal's capabilities when it can show Pajama full-screen; otherwise says why not (on standard
    /// error) and returns nil: the caller exits 64, having drawn nothing.
    public static func fullScreenTerminal() -> TerminalCapabilities? {
        let terminal = TerminalCapabilities.current()
        if let problem = terminal.fullScreenProblem {
            printError("pajama: \(problem)")
            return nil
        }
        return terminal
    }

    /// Opens the story at `source`; `preloading` off for a reading that never waits for a reader (`pajama
    /// play` awaits every move, so loading ahead would only fetch branches it does not take).
    public static func open(
        _ source: any StorySource, sound: PulseSoundEngine?, paths: Paths, preloading: Bool = true
    ) async throws(AssetLoadError) -> StoryContentManager {
        try await logged(source) { () async throws(AssetLoadError) in
            try await StoryContentManager.open(
                source: source, diskCache: DiskCache(root: paths.cache),
                decodeImage: { path, bytes throws(AssetLoadError) in try ImageDecoder.decode(path: path, bytes: bytes) },
                sound: sound.map(SoundClient.live), preloading: preloading, preloadPolicy: .measured)
        }
    }

    /// Opens the story at `source` for a reading that waits for every move and shows nothing (`pajama play`):
    /// a local story straight from its source, on the reader's thread (`DirectStoryContent`); a remote one
    /// through the loading engine (its retries and disk cache), without preloading.
    public static func openHeadless(_ source: any StorySource, paths: Paths) async throws(AssetLoadError) -> any StoryContent {
        guard source.isLocal else { return try await open(source, sound: nil, paths: paths, preloading: false) }
        return try await logged(source) { () async throws(AssetLoadError) in
            try await DirectStoryContent.open(
                source: source, decodeImage: { path, bytes throws(AssetLoadError) in try ImageDecoder.decode(path: path, bytes: bytes) })
        }
    }

    /// Opens the story at `source` with `open`, saying in the log what was opened, or why it could not be.
    private static func logged<Content: StoryContent>(
        _ source: any StorySource, _ open: () async throws(AssetLoadError) -> Content
    ) async throws(AssetLoadError) -> Content {
        do {
            let content = try await open()
            PajamaLog.loading.info(
                "opened story \(content.manifest.id)",
                metadata: ["source": "\(source.location)", "title": "\(content.manifest.title)", "version": "\(content.manifest.version ?? "")"])
            return content
        } catch {
            PajamaLog.loading.error("cannot open the story at \(source.location): \(error)")
            throw error
        }
    }

    static func read(
        _ content: StoryContentManager, screen: any ReaderTerminal, sound: PulseSoundEngine?, start: StoryLocation?,
        restart: Bool, bookmark: Bookmark? = nil, options: ReaderOptions, paths: Paths, coReading: CoReadingSide? = nil,
        transcript: TranscriptRecorder? = nil, watcher: FolderWatcher? = nil
    ) async -> ReaderController.Outcome {
        let client = sound.map(SoundClient.live)
        let viewModel = ReaderViewModel(content: content, sound: client, progress: paths.progressStore,
                                        bookmarks: paths.bookmarkStore)
        transcript?.follow(viewModel)
        if let name = storyTheme(content.manifest, options, paths: paths),
            let wanted = ThemeLibrary.load(name, paths: ThemeLibrary.searchPaths(paths))
        {
            screen.theme = wanted
        }
        let readAloud = makeReadAloud(options, sound: sound)
        readAloud?.follow(viewModel.events())
        var stats: (@MainActor () async -> [String])?
        if options.stats { stats = { @MainActor in await StatsPanel.lines(content) } }
        let statusPages = content.source as? any StatusPageSource
        let controller = ReaderController(
            viewModel: viewModel, content: content, screen: screen, sound: client, storyTitle: content.manifest.title,
            themes: ThemeLibrary.names(in: ThemeLibrary.searchPaths(paths)), paths: paths, statsProvider: stats,
            loadingEvents: content.loadingEvents(), role: coReading?.role ?? .solo, readAloud: readAloud,
            timedText: !options.noTimedText && ReaderSettings.load(from: paths.readerSettings, files: paths.files).hasTimedText,
            statusPages: statusPages, statusPageTitle: await statusPages?.statusPageTitle())
        screen.invalidate()
        let link = coReading.map { CoReadingWiring(side: $0, viewModel: viewModel, controller: controller, content: content) }
        let watch = watcher.map { StoryWatch(watcher: $0, content: content, controller: controller) }
        let outcome = await controller.run(start: start, restart: restart, bookmark: bookmark)
        await watch?.close()
        link?.close()
        // Quit (a key or a quit signal): the newest progress is written before the session ends.
        readAloud?.finish()
        await viewModel.close()
        return outcome
    }

    /// Read aloud for a session with sound (off until `v` unless `--read-aloud`); nil without sound or
    /// without espeak-ng (the reason is logged; `pajama doctor` shows it).
    /// espeak-ng starts only once read aloud is on: with it off, at the first `v` (starting it opens a brief
    /// "eSpeak" stream on the sound server).
    static func makeReadAloud(_ options: ReaderOptions, sound: PulseSoundEngine?) -> ReadAloud? {
        guard let sound else { return nil }
        guard options.readAloud else { return ReadAloud(speech: .live(sound, voice: options.voice), on: false) }
        switch SpeechSynthesizer.shared(voice: options.voice) {
        case .success(let synthesizer):
            return ReadAloud(speech: .live(sound, synthesizer: synthesizer), on: options.readAloud)
        case .failure(let problem):
            PajamaLog.sound.warning("read aloud is not available: \(problem)")
            return nil
        }
    }

    static func makeSound(_ options: ReaderOptions, paths: Paths) -> PulseSoundEngine? {
        options.noSound ? nil : PulseSoundEngine.start(server: options.soundServer, settingsFile: paths.soundSettings, files: paths.files)
    }

    /// The theme a story asks for (`StoryTheme.themeName`), nil when it asks for none or the reader chose a
    /// theme (`--theme`, or `t` remembered): that one is the screen's already.
    static func storyTheme(_ manifest: StoryManifest, _ options: ReaderOptions, paths: Paths) -> String? {
        guard manifest.theme != nil else { return nil }
        let remembered = ReaderSettings.load(from: paths.readerSettings, files: paths.files).theme
        guard options.theme == nil, remembered == nil else { return nil }
        return StoryTheme.themeName(requested: options.theme, remembered: remembered, story: manifest.theme)
    }

    static func theme(_ options: ReaderOptions, paths: Paths) -> Theme {
        let name = options.theme ?? ReaderSettings.load(from: paths.readerSettings, files: paths.files).theme ?? "default"
        let folders = ThemeLibrary.searchPaths(paths)
        return ThemeLibrary.load(name, paths: folders) ?? ThemeLibrary.load("default", paths: folders) ?? Theme.builtIn
    }

    /// Says `text` on standard error, or to the task's `ReaderMessages.collector` when one is set.
    public nonisolated static func printError(_ text: String) {
        if let collector = ReaderMessages.collector { return collector(text) }
        StandardError.write(text + "\n")
    }
}
