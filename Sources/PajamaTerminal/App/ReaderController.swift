import Foundation
import PajamaCore
import PajamaImage

/// Wires one reading session, on the main actor (ncurses is not thread-safe): terminal keys → `ReaderPresenter`
/// (every decision) → effects run here on the view model, the sound engine, the theme files and the picture
/// cache (pictures are rendered off the main actor) → the presenter's frame → the terminal.
@MainActor
public final class ReaderController {
    /// How often the `--stats` panel is refreshed.
    static let statsInterval: Duration = .milliseconds(250)

    /// How a session ended.
    public enum Outcome: Sendable { case quit, signal(Int32) }

    /// What the key worker handles, in order: a key, or effects due on a tick (auto-forward's move).
    private enum Work: Sendable {
        case key(Key)
        case effects([ReaderEffect])
        /// The story's files changed (`--watch`): the page is shown again from what is there now.
        case reload(beats: Set<String>?)
    }

    private let viewModel: ReaderViewModel
    private let content: any StoryContent
    private let terminal: any ReaderTerminal
    private let sound: SoundClient?
    private let statsProvider: (@MainActor () async -> [String])?
    private let pictureCache: PictureCache
    private let paths: Paths  // where themes are found and the chosen one is remembered
    /// The story's loading events (nil: the Loading screen names no progress).
    private let loadingEvents: AsyncStream<LoadingEvent>?
    /// Read aloud (`v`), when the session has it (sound on and espeak-ng present).
    private let readAloud: ReadAloud?
    private var presenter: ReaderPresenter
    private var finished = false
    /// Whether the key worker is in the middle of a key (e.g. a move waiting on a load).
    private var handlingKey = false
    /// The key (or auto-forward move) being handled, so back can stop a move that waits on a load.
    private var workInProgress: Task<Void, Never>?
    /// The session's tasks (key worker, watchers, the start) and the page visit's (picture loads and
    /// renders): each set is cancelled by its owner (the end of `run`, leaving the page).
    private var sessionTasks: [Task<Void, Never>] = []
    private var visitTasks: [Task<Void, Never>] = []
    /// The grid the next frame is composed into: the one the terminal handed back from the frame before
    /// (two grids take turns, so drawing a frame allocates none).
    private var spareGrid: CellGrid?
    /// Where work for the key worker goes, while the session runs.
    private var workInput: AsyncStream<Work>.Continuation?

    public init(
        viewModel: ReaderViewModel, content: any StoryContent, screen: any ReaderTerminal, sound: SoundClient?,
        storyTitle: String, themes: [String], paths: Paths, statsProvider: (@MainActor () async -> [String])? = nil,
        pictureCache: PictureCache = PictureCache(), loadingEvents: AsyncStream<LoadingEvent>? = nil, role: ReaderRole = .solo,
        readAloud: ReadAloud? = nil
    ) {
        self.readAloud = readAloud
        self.viewModel = viewModel
        self.content = content
        terminal = screen
        self.sound = sound
        self.paths = paths
        self.statsProvider = statsProvider
        self.pictureCache = pictureCache
        self.loadingEvents = loadingEvents
        presenter = ReaderPresenter(
            storyTitle: storyTitle, width: screen.width, height: screen.height, themes: themes,
            themeName: screen.theme.name, look: screen.pictureLook, sound: .disabled, role: role,
            showsPosition: statsProvider != nil)
    }

    /// The co-reading role changed (followers came or went).
    public func setRole(_ role: ReaderRole) { dispatch(.role(role)) }
    /// The owner of the followed session ended it: this reader reads on solo.
    public func sessionEnded() { dispatch(.sessionEnded) }
    /// Something to tell the reader once (co-reading: the connection to the host lost, back).
    public func notice(_ text: String) { dispatch(.notice(text)) }

    /// The story's files changed (`pajama read FOLDER --watch`) and the content has dropped what changed
    /// (`StoryContentManager.reload`): renders of changed pictures are dropped, the title follows story.json,
    /// and the page shown is entered again (in turn with the keys) on the same beat and page. `beats` and
    /// `assets` nil: anything may have changed.
    public func storyChanged(title: String, beats: Set<String>?, assets: Set<AssetPath>?) async {
        await pictureCache.forget(assets)
        dispatch(.storyChanged(title: title, assets: assets))
        workInput?.yield(.reload(beats: beats))
    }

    /// What validating the story found (`--watch`), a line per problem as `pajama validate` prints them:
    /// shown in an overlay, which goes away by itself when `lines` is empty.
    public func showProblems(_ lines: [String]) { dispatch(.problems(lines)) }

    /// Reads until the reader quits, a quit signal arrives or the terminal goes away. Never polls: it sleeps
    /// until a key, a signal, a finished load or a deadline (grace period, stats) wakes it. Keys are handled in
    /// order by a worker, so the frame keeps being drawn (e.g. "Loading...") while a move waits on a load.
    public func run(start: StoryLocation?, restart: Bool, bookmark: Bookmark? = nil) async -> Outcome {
        let viewModelEvents = viewModel.events()  // subscribed before the view model starts
        // Keys, and the moves auto-forward asks for on a tick, are handled in order by one worker.
        let (work, workInput) = AsyncStream<Work>.makeStream()
        self.workInput = workInput
        sessionTasks = [
            Task { @MainActor [weak self] in for await event in viewModelEvents { self?.consume(event) } },
            Task { @MainActor [weak self] in
                for await item in work {
                    guard let self, !self.finished else { return }
                    self.handlingKey = true
                    let step = Task { @MainActor [weak self] in
                        guard let self else { return }
                        switch item {
                        case .key(let key): await self.perform(self.send(.key(key)))
                        case .effects(let effects): await self.perform(effects)
                        case .reload(let beats): await self.viewModel.reload(beats: beats)
                        }
                    }
                    self.workInProgress = step
                    await step.value
                    self.workInProgress = nil
                    self.handlingKey = false
                }
            },
            // The status line follows the sound server (lost, back) without waiting for a key.
            Task { @MainActor [weak self, sound] in
                guard let sound else { return }
                for await _ in sound.stateChanges() { self?.terminal.wake() }
            },
            // Bytes arriving redraw the Loading screen (its byte count) once it is shown.
            Task { @MainActor [weak self, loadingEvents] in
                guard let loadingEvents else { return }
                for await event in loadingEvents {
                    self?.dispatch(.loading(event))
                    if case .finished = event { self?.checkNextPages() }  // a next page's beat or asset may be in
                }
            },
            Task { @MainActor [viewModel] in await viewModel.start(at: start, restart: restart, bookmark: bookmark) },
        ]
        defer {
            self.workInput = nil
            workInput.finish()
            workInProgress?.cancel()
            (sessionTasks + visitTasks).forEach { $0.cancel() }
        }
        var statsDue = ContinuousClock.now
        while !finished {
            if let sig = terminal.quitSignal { return .signal(sig) }
            while let key = terminal.readKey() {
                if case .resize = key {
                    terminal.invalidate()
                    dispatch(.resize(width: terminal.width, height: terminal.height))
                } else if handlingKey, presenter.quitsAtOnce(key) {
                    finished = true  // quitting never waits behind a key still in progress
                } else if handlingKey, presenter.backsOutOfAWait(key) {
                    // Back never waits behind a move stuck on a load (a slow link, a server that never
                    // answers): that move stops waiting (it fails as cancelled, so nothing it loads is
                    // shown), and back, next in line, returns from there to the page it left.
                    workInProgress?.cancel()
                    workInput.yield(.key(key))
                } else {
                    workInput.yield(.key(key))
                }
            }
            var timeout: Duration = .seconds(1)
            if let statsProvider {
                if ContinuousClock.now >= statsDue {
                    dispatch(.stats(await statsProvider()))
                    statsDue = .now + Self.statsInterval
                }
                timeout = min(timeout, statsDue - .now)
            }
            apply(send(.sound(soundStatus)))
            let due = send(.tick)  // auto-forward's move, once its pause is over: in turn with the keys
            if !due.isEmpty { workInput.yield(.effects(due)) }
            if let deadline = presenter.deadline { timeout = min(timeout, deadline - .now) }
            if presenter.needsRedraw {
                var grid = spareGrid ?? CellGrid(width: 0, height: 0)
                spareGrid = nil  // the grid is held once, so composing into it does not copy it
                let effects = presenter.render(into: &grid)
                spareGrid = terminal.draw(grid)
                apply(effects)
            }
            await terminal.waitForInput(timeout: max(timeout, .milliseconds(1)))
        }
        return .quit
    }

    /// The view model's events that change the screen, into the presenter.
    private func consume(_ event: ReaderEvent) {
        if case .stateChanged(let state) = event {
            dispatch(.state(state))  // a new page leaves the last visit first (its tasks are cancelled)
            checkNextPages()
        }
        if case .notice(let text) = event { dispatch(.notice(text)) }
    }

    /// Asks the loading engine whether every page reading can go to next is loaded with its critical assets
    /// (the status line's "▸ ready"); again after each finished load until it is. Answered at once from what
    /// the content has in memory (`StoryContent.resident`), so a new page's first frame already says it (one
    /// frame a key, not a second one after a trip to the content's actor); else in a task of the page visit.
    private func checkNextPages() {
        guard case .page(let page) = viewModel.state, presenter.nextReady != SeenPage(page.location) else { return }
        if let resident = content.resident {
            dispatch(.nextPagesReady(page.location, resident.nextPagesReady(after: page)))
            return
        }
        visitTasks.append(Task { @MainActor [weak self, content] in
            let ready = await content.nextPagesReady(after: page)
            guard !Task.isCancelled else { return }
            self?.dispatch(.nextPagesReady(page.location, ready))
        })
    }

    /// Hands `event` to the presenter; wakes the loop when the frame must be drawn again.
    private func send(_ event: ReaderPresenter.Event) -> [ReaderEffect] {
        let effects = presenter.handle(event, at: .now)
        if presenter.needsRedraw { terminal.wake() }
        return effects
    }

    /// `send`, running the effects that do not wait.
    private func dispatch(_ event: ReaderPresenter.Event) { apply(send(event)) }

    /// The sound engine's state as the presenter sees it (the only place that reads the engine).
    private var soundStatus: SoundStatus {
        sound.map { SoundStatus(state: $0.state, volume: $0.volume, isMuted: $0.isMuted) } ?? .disabled
    }

    /// Runs `effects` in order, waiting for each move to finish (keys are handled one after another).
    private func perform(_ effects: [ReaderEffect]) async {
        for effect in effects {
            switch effect {
            case .move(let move): await viewModel.changePage(move)
            case .retry: await viewModel.retry()
            case .skip: await viewModel.skip()
            case .restart: await viewModel.restart()
            case .openBacklog: dispatch(.backlog(await viewModel.backlog()))
            case .goBack(let index): await viewModel.goBack(toHistoryIndex: index)
            case .openBookmarks: dispatch(.bookmarks(await viewModel.bookmarks()))
            case .openBookmark(let bookmark): await viewModel.open(bookmark)
            default: apply([effect])
            }
        }
    }

    /// Runs the effects that do not wait: sound, theme, pictures, quit. (Moves come only from keys.)
    private func apply(_ effects: [ReaderEffect]) {
        for effect in effects {
            switch effect {
            case .quit: finished = true
            case .toggleMute: sound?.isMuted.toggle()
            case .toggleReadAloud:
                if let readAloud {
                    readAloud.isOn.toggle()
                    dispatch(.notice("read aloud: \(readAloud.isOn ? "on" : "off")"))
                } else {
                    dispatch(.notice(sound == nil ? "read aloud needs sound (started with --no-sound?)" : "read aloud is not available (see pajama doctor)"))
                }
            case .saveBookmark(let name): viewModel.saveBookmark(name: name)
            case .setVolume(let volume): sound?.volume = volume
            case .applyTheme(let name): applyTheme(name)
            case .leavePage:
                visitTasks.forEach { $0.cancel() }
                visitTasks = []
            case .loadPicture(let path): visitTasks.append(Task { @MainActor [weak self] in await self?.loadPicture(path) })
            case .requestPicture(let key, let image):
                visitTasks.append(Task { @MainActor [weak self, pictureCache] in
                    // A quick draft first when the final render is slow (chafa's perceptual colour matching):
                    // the picture shows at once, and its final cells replace it when they are ready.
                    if let draft = await pictureCache.draft(for: image, key: key) {
                        guard !Task.isCancelled else { return }
                        self?.dispatch(.pictureDraft(key, draft))
                    }
                    let cells = await pictureCache.cells(for: image, key: key)
                    guard !Task.isCancelled else { return }
                    self?.dispatch(.pictureCells(key, cells))
                })
            case .move, .retry, .skip, .restart, .openBacklog, .goBack, .openBookmarks, .openBookmark: break
            }
        }
    }

    private func loadPicture(_ path: AssetPath) async {
        var image = await content.cachedImage(path)
        var failed = false
        if image == nil {
            do { image = try await content.loadImage(path) } catch { failed = true }
        }
        guard !Task.isCancelled else { return }  // the reader left the page
        if let image { dispatch(.pictureLoaded(path, image)) } else if failed { dispatch(.pictureFailed(path)) }
    }

    private func applyTheme(_ name: String) {
        guard let theme = ThemeLibrary.load(name, paths: ThemeLibrary.searchPaths(paths)) else { return }
        terminal.theme = theme
        let problem = ReaderSettings(theme: theme.name).save(to: paths.readerSettings)
        dispatch(.themeApplied(name: theme.name, look: terminal.pictureLook))
        if let problem { dispatch(.notice(problem)) }  // the theme is used, but not remembered
    }
}
