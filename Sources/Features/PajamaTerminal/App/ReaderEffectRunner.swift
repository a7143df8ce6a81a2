import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaImage
import PajamaStoryFormat

/// Runs the presenter's effects for `ReaderController`'s loop, on the main actor: on the view model, the sound
/// engine (the only code that reads or sets it), the theme files, the loading engine and the picture cache.
/// What an effect answers comes back as an event (posted to the loop's `ReaderInbox`): at once when the answer is in memory (a resident
/// picture, its cells, the next pages), so the same turn's frame has it; else from a task it owns. The work on
/// the view model runs one at a time (the presenter starts the next on `.workFinished`); the page visit's tasks
/// are cancelled when the reader leaves the page (`.leavePage`), and everything by `cancelAll` at the end.
@MainActor
final class ReaderEffectRunner {
    private let viewModel: ReaderViewModel
    private let content: any StoryContent
    private let terminal: any ReaderTerminal
    private let sound: SoundClient?
    private let pictureCache: PictureCache
    private let paths: Paths  // where themes are found and the chosen one is remembered
    private let readAloud: ReadAloud?
    private let inbox: ReaderInbox
    /// The story, when it offers a status page (`i`).
    private let statusPages: (any StatusPageSource)?
    private var work: Task<Void, Never>?
    private var visitTasks: [Task<Void, Never>] = []
    /// Where a follower's votes go (the co-reading wiring's `FollowerBallot`); nil: nowhere.
    var voted: (@MainActor (StoryLocation, Int) -> Void)?
    /// The reader's settings as this session last saved them (nil: not changed yet; read from the file then).
    private var settings: ReaderSettings?

    init(viewModel: ReaderViewModel, content: any StoryContent, terminal: any ReaderTerminal, sound: SoundClient?,
         pictureCache: PictureCache, paths: Paths, readAloud: ReadAloud?, inbox: ReaderInbox, statusPages: (any StatusPageSource)? = nil) {
        self.statusPages = statusPages
        (self.viewModel, self.content, self.terminal, self.sound) = (viewModel, content, terminal, sound)
        (self.pictureCache, self.paths, self.readAloud, self.inbox) = (pictureCache, paths, readAloud, inbox)
    }

    private func post(_ event: ReaderPresenter.Event) { inbox.post(event) }

    /// The sound engine's state as the presenter sees it.
    var soundStatus: SoundStatus {
        sound.map { SoundStatus(state: $0.state, volume: $0.volume, isMuted: $0.isMuted) } ?? .disabled
    }

    /// Cancels the work under way and the page visit's tasks (the session ends).
    func cancelAll() {
        work?.cancel()
        visitTasks.forEach { $0.cancel() }
        visitTasks = []
    }

    /// Performs `effects` in order: work on the view model in a task (answered by `.workFinished`), the rest at once.
    func perform(_ effects: [ReaderEffect]) {
        for effect in effects {
            switch effect {
            case .quit: break  // the loop's own
            case .vote(let location, let choice): voted?(location, choice)
            case .cancelWork: work?.cancel()
            case .toggleMute, .setVolume:
                if case .setVolume(let volume) = effect { sound?.volume = volume } else { sound?.isMuted.toggle() }
                if let sound {  // remembered behind the reader, like the theme
                    let settings = SoundSettings(volume: sound.volume, muted: sound.isMuted), file = paths.soundSettings, files = paths.files
                    viewModel.remember(settingsIn: file) { settings.save(to: file, files: files) }
                }
                post(.sound(soundStatus))
            case .setReadAloud(let on): readAloud?.isOn = on
            case .setCaptions(let on): rememberCaptions(on)
            case .speak(let text): readAloud?.say(text)
            case .saveBookmark(let name): viewModel.saveBookmark(name: name)
            case .setTimedText(let on): setTimedText(on)
            case .applyTheme(let name): applyTheme(name)
            case .leavePage:
                visitTasks.forEach { $0.cancel() }
                visitTasks = []
            case .openStatus(let beatId):
                visit { [statusPages] answer in answer(.statusPage(await statusPages?.statusPage(at: beatId), beatId: beatId)) }
            case .checkNextPages(let page):
                post(.nextPagesReady(page.location, content.resident.nextPagesReady(after: page)))
            case .loadPicture(let path):
                if let image = content.resident.image(path) { post(.pictureLoaded(path, image)) } else {
                    visit { [content] answer in
                        do { answer(.pictureLoaded(path, try await content.loadImage(path))) } catch { answer(.pictureFailed(path)) }
                    }
                }
            case .requestPicture(let key, let image):
                if let cells = pictureCache.resident(key) { post(.pictureCells(key, cells)) } else {
                    visit { [pictureCache] answer in
                        // A quick draft first when the final render is slow; its final cells replace it.
                        if let draft = await pictureCache.draft(for: image, key: key) { answer(.pictureDraft(key, draft)) }
                        answer(.pictureCells(key, await pictureCache.cells(for: image, key: key)))
                    }
                }
            case .move, .retry, .skip, .restart, .openBacklog, .goBack, .reload, .openBookmarks, .openBookmark:
                work = Task { @MainActor [weak self] in
                    await self?.work(on: effect)
                    self?.post(.workFinished)
                }
            }
        }
    }

    /// Work on the view model; the state it leads to comes back on the view model's own stream.
    private func work(on effect: ReaderEffect) async {
        switch effect {
        case .move(let move): await viewModel.changePage(move)
        case .retry: await viewModel.retry()
        case .skip: await viewModel.skip()
        case .restart: await viewModel.restart()
        case .openBacklog: post(.backlog(await viewModel.backlog()))
        case .goBack(let index): await viewModel.goBack(toHistoryIndex: index)
        case .reload(let beats): await viewModel.reload(beats: beats)
        case .openBookmarks: post(.bookmarks(await viewModel.bookmarks()))
        case .openBookmark(let bookmark): await viewModel.open(bookmark)
        default: break
        }
    }

    /// No timed text while `on` is false (the view model shows pages whole), remembered behind the reader.
    private func setTimedText(_ on: Bool) {
        viewModel.revealsWholePages = !on
        remember { $0.timedText = on ? nil : false }
    }

    /// Changes the reader's settings as `change` says and saves them all behind the reader (the writer keeps
    /// the newest save of a file: each one holds every setting, the others as they were).
    private func remember(_ change: (inout ReaderSettings) -> Void) {
        let file = paths.readerSettings, files = paths.files
        var settings = self.settings ?? ReaderSettings.load(from: file, files: files)
        change(&settings)
        self.settings = settings
        viewModel.remember(settingsIn: file) { [settings] in settings.save(to: file, files: files) }
    }

    /// A task of the page visit: what it answers is posted unless the reader left the page meanwhile.
    private func visit(_ body: @escaping @MainActor (_ answer: (ReaderPresenter.Event) -> Void) async -> Void) {
        visitTasks.append(Task { @MainActor [weak self] in
            await body { event in if !Task.isCancelled { self?.post(event) } }
        })
    }

    private func applyTheme(_ name: String) {
        guard let theme = ThemeLibrary.load(name, paths: ThemeLibrary.searchPaths(paths)) else { return }
        terminal.theme = theme
        // Remembered behind the reader; a problem is told as a notice (the theme is used, but not remembered).
        remember { $0.theme = theme.name }
        post(.themeApplied(name: theme.name, look: terminal.pictureLook))
    }

    /// Remembers whether captions are on, beside the theme.
    private func rememberCaptions(_ on: Bool) { remember { $0.captions = on } }
}
