import Foundation
import PajamaCore
import PajamaImage

/// Drives one reading session: keys → `ReaderViewModel`, view model state → frames on the `Screen`.
///
/// Runs entirely on the main actor (ncurses is not thread-safe); loads (beats, pictures, sounds) happen in
/// the engine's actors and report back here, and pictures are rendered into cells by a `PictureCache`
/// actor, so drawing a frame never waits for picture work.
@MainActor
public final class ReaderController {
    /// Shown only when a load takes longer than this, so fast loads never flash "Loading...".
    public static let loadingGrace: Duration = .milliseconds(150)

    /// How a session ended.
    public enum Outcome: Sendable { case quit, signal(Int32) }

    private let viewModel: ReaderViewModel
    private let content: any StoryContent
    private let screen: Screen
    private let sound: SoundClient?
    private let storyTitle: String
    private let statsProvider: (@MainActor () async -> [String])?
    private let pictureCache: PictureCache
    private var themes: [String]
    /// Where themes are found and the chosen one is remembered.
    private let paths: Paths
    private var selectedChoice = 0
    private var scroll = 0
    private var showHelp = false
    private var confirmRestart = false
    private var notice: String?
    private var loadingSince: ContinuousClock.Instant?
    /// Whether the frame showing "Loading..." (after the grace period) has been asked for.
    private var loadingShown = false
    private var lastLocation: StoryLocation?
    private var statsLines: [String]?
    /// Whether the frame must be drawn again; setting it wakes the loop.
    private var dirty = true {
        didSet { if dirty { screen.wake() } }
    }
    private var finished = false
    /// Whether the key worker is in the middle of a key (e.g. a move waiting on a load).
    private var handlingKey = false
    /// The last page shown, kept on screen while a short load is inside its grace period.
    private var lastPage: PageState?
    /// The story's loading events (nil: the Loading screen names no progress), folded into `loadingProgress`.
    private let loadingEvents: AsyncStream<LoadingEvent>?
    private var loadingProgress = LoadingProgress()

    public init(
        viewModel: ReaderViewModel, content: any StoryContent, screen: Screen, sound: SoundClient?,
        storyTitle: String, themes: [String], paths: Paths, statsProvider: (@MainActor () async -> [String])? = nil,
        pictureCache: PictureCache = PictureCache(), loadingEvents: AsyncStream<LoadingEvent>? = nil
    ) {
        self.loadingEvents = loadingEvents
        self.viewModel = viewModel
        self.content = content
        self.screen = screen
        self.sound = sound
        self.storyTitle = storyTitle
        self.themes = themes
        self.paths = paths
        self.statsProvider = statsProvider
        self.pictureCache = pictureCache
    }

    /// Reads until the reader quits, a quit signal arrives or the terminal goes away.
    ///
    /// The loop never polls: it sleeps in `Screen.waitForInput` until a key, a signal, a finished load
    /// or a deadline (the loading grace period, the stats refresh) wakes it. Keys are handled in order
    /// by a worker task, so the frame keeps being drawn (e.g. "Loading...") while a move waits on a load.
    public func run(start: StoryLocation?, restart: Bool) async -> Outcome {
        let viewModelEvents = viewModel.events()  // subscribed before the view model starts
        let eventWatcher = Task { @MainActor [weak self] in for await event in viewModelEvents { self?.handle(event) } }
        let (keys, keyInput) = AsyncStream<Key>.makeStream()
        let worker = Task { @MainActor [weak self] in
            for await key in keys {
                guard let self, !self.finished else { return }
                self.handlingKey = true
                await self.handle(key)
                self.handlingKey = false
            }
        }
        // The status line follows the sound server (lost, back) without waiting for a key.
        let soundWatcher = sound.map { sound in
            Task { @MainActor [weak self] in
                for await _ in sound.stateChanges() { self?.dirty = true }
            }
        }
        // Bytes arriving redraw the Loading screen (its byte count) once it is shown.
        let progressWatcher = Task { @MainActor [weak self, loadingEvents] in
            guard let loadingEvents else { return }
            for await event in loadingEvents {
                guard let self else { return }
                self.loadingProgress.apply(event)
                if case .loading = self.viewModel.state, self.loadingShown { self.dirty = true }
            }
        }
        defer {
            keyInput.finish()
            worker.cancel()
            eventWatcher.cancel()
            progressWatcher.cancel()
            soundWatcher?.cancel()
        }
        Task { await viewModel.start(at: start, restart: restart) }
        var statsDue = ContinuousClock.now
        while !finished {
            if let sig = screen.quitSignal { return .signal(sig) }
            while let key = screen.readKey() {
                if case .resize = key {
                    screen.invalidate()
                    dirty = true
                } else if handlingKey, !showHelp, !confirmRestart, KeyMap.action(for: key, onChoicePage: false) == .quit {
                    // Quitting never waits behind a key still in progress (a move waiting on a load).
                    finished = true
                } else {
                    keyInput.yield(key)
                }
            }
            var timeout: Duration = .seconds(1)
            if statsProvider != nil {
                if ContinuousClock.now >= statsDue {
                    statsLines = await statsProvider?()
                    statsDue = .now + Self.statsInterval
                    dirty = true
                }
                timeout = min(timeout, statsDue - .now)
            }
            // "Loading..." appears once the grace period is over: one redraw at that moment.
            if case .loading = viewModel.state, let since = loadingSince, !loadingShown {
                let left = Self.loadingGrace - (ContinuousClock.now - since)
                if left > .zero {
                    timeout = min(timeout, left)
                } else {
                    loadingShown = true
                    dirty = true
                }
            }
            if dirty { redraw() }
            await screen.waitForInput(timeout: max(timeout, .milliseconds(1)))
        }
        return .quit
    }

    /// How often the `--stats` panel is refreshed.
    static let statsInterval: Duration = .milliseconds(250)

    // MARK: Events

    private func handle(_ event: ReaderEvent) {
        switch event {
        case .stateChanged(let state):
            if case .loading = state {
                if loadingSince == nil { loadingSince = .now }
            } else {
                loadingSince = nil
                loadingShown = false
            }
            if case .page(let page) = state {
                // A newly revealed line scrolls into view when the page is longer than the screen.
                if let last = lastPage, last.location.beatId == page.location.beatId, last.location.pageId == page.location.pageId,
                   page.revealedLines > last.revealedLines {
                    lastPage = page
                    scroll = PageRenderer.maximumScroll(for: model(), width: screen.width, height: screen.height)
                }
                lastPage = page
            }
            if case .page(let page) = state, page.location.beatId != lastLocation?.beatId || page.location.pageId != lastLocation?.pageId {
                selectedChoice = 0
                scroll = 0
                lastLocation = page.location
                loadPicture(of: page.page)
            }
            if case .finished(let page) = state { loadPicture(of: page.page) }
        case .notice(let text):
            notice = text
        default:
            break
        }
        dirty = true
    }

    // MARK: Pictures

    /// The decoded picture of the page on screen.
    private var picture: (path: AssetPath, image: StoryImage)?
    /// Pictures that failed to load (their pages show "picture unavailable"; entering one tries again).
    private var failedPictures: Set<AssetPath> = []
    /// The latest cells received for the page's picture, and the render asked for last.
    private var shownPicture: (key: PictureCache.Key, cells: PictureCells)?
    private var requestedPicture: PictureCache.Key?

    private func loadPicture(of page: Page) {
        guard let path = page.imageUrl, picture?.path != path else { return }
        Task { @MainActor in
            var image = await content.cachedImage(path)
            if image == nil {
                do {
                    image = try await content.loadImage(path)
                } catch {
                    failedPictures.insert(path)
                }
            }
            guard let image, pageState?.page.imageUrl == path else {
                dirty = true
                return
            }
            failedPictures.remove(path)
            picture = (path, image)
            dirty = true
        }
    }

    /// Asks the cache for the picture of the page in `model` at the size the layout gives it now (a new
    /// page, a resize, the stats panel). Until the cells arrive the frame keeps the previous cells
    /// (clipped) or none: it never waits.
    private func requestPicture(for model: ScreenModel) {
        let view: PageView
        switch model.content {
        case .page(let v), .finished(let v): view = v
        default: return
        }
        guard let picture, view.page.imageUrl == picture.path,
              let box = PageRenderer.pictureBox(for: model, width: screen.width, height: screen.height)
        else { return }
        let look = PictureLook(term: screen.capabilities.name, colors: screen.colors, theme: screen.theme)
        let key = PictureCache.Key(path: picture.path, width: box.width, height: box.height, look: look)
        guard shownPicture?.key != key, requestedPicture != key else { return }
        requestedPicture = key
        let image = picture.image
        Task { @MainActor [pictureCache] in
            let cells = await pictureCache.cells(for: image, key: key)
            guard requestedPicture == key else { return }  // superseded by a newer size or page
            shownPicture = (key, cells)
            dirty = true
        }
    }

    // MARK: Keys

    private var pageState: PageState? {
        switch viewModel.state {
        case .page(let p), .finished(let p): p
        default: nil
        }
    }

    private func handle(_ key: Key) async {
        dirty = true
        if case .resize = key {
            screen.invalidate()
            return
        }
        notice = nil
        if showHelp {
            showHelp = false
            return
        }
        let choices = pageState?.page.choices ?? []
        if case .click(_, let y) = key {
            if let index = clickedChoice(row: y) { await viewModel.changePage(.choose(index)) }
            return
        }
        guard let action = KeyMap.action(for: key, onChoicePage: !choices.isEmpty) else { return }
        if confirmRestart {
            confirmRestart = false
            if case .confirm(true) = action { await viewModel.restart() }
            return
        }
        if case .failed = viewModel.state {
            switch action {
            case .restart, .retry: await viewModel.retry()
            case .skip: await viewModel.skip()
            case .back: await viewModel.changePage(.back)
            case .quit: finished = true
            default: break
            }
            return
        }
        switch action {
        case .advance:
            if case .finished = viewModel.state { return }
            await viewModel.changePage(.advance)
        case .back: await viewModel.changePage(.back)
        case .choose(let index):
            if index < choices.count { await viewModel.changePage(.choose(index)) }
        case .selectPrevious:
            if !choices.isEmpty { selectedChoice = (selectedChoice + choices.count - 1) % choices.count }
        case .selectNext:
            if !choices.isEmpty { selectedChoice = (selectedChoice + 1) % choices.count }
        case .takeSelected:
            if selectedChoice < choices.count { await viewModel.changePage(.choose(selectedChoice)) }
        case .restart: confirmRestart = true
        case .mute, .volumeUp, .volumeDown:
            if let why = soundOffNotice {
                notice = why
            } else if let sound {
                switch action {
                case .mute: sound.isMuted.toggle()
                case .volumeUp: sound.volume = min(100, (sound.volume / 10 + 1) * 10)
                default: sound.volume = max(0, (sound.volume + 9) / 10 * 10 - 10)
                }
            }
        case .nextTheme:
            if !themes.isEmpty {
                let index = ((themes.firstIndex(of: screen.theme.name) ?? -1) + 1) % themes.count
                if let theme = ThemeLibrary.load(themes[index], paths: ThemeLibrary.searchPaths(paths)) {
                    screen.theme = theme
                    ReaderSettings(theme: theme.name).save(to: paths.readerSettings)
                    notice = "theme: \(theme.name)"
                }
            }
        case .help: showHelp = true
        case .quit: finished = true
        case .scrollUp: scrollText(by: -PageRenderer.pageStep(for: model(), width: screen.width, height: screen.height))
        case .scrollDown: scrollText(by: PageRenderer.pageStep(for: model(), width: screen.width, height: screen.height))
        case .scrollLineUp: scrollText(by: -1)
        case .scrollLineDown: scrollText(by: 1)
        case .retry, .skip, .confirm, .redraw: break
        }
    }

    /// Moves the page's text by `lines` (negative: up), within the page.
    private func scrollText(by lines: Int) {
        scroll = max(0, min(maximumScroll, min(scroll, maximumScroll) + lines))
    }

    private var maximumScroll: Int { PageRenderer.maximumScroll(for: model(), width: screen.width, height: screen.height) }

    private func clickedChoice(row: Int) -> Int? {
        guard let page = pageState, !page.page.choices.isEmpty else { return nil }
        let grid = frame()
        for (index, choice) in page.page.choices.enumerated() {
            let label = "\(index + 1). " + String(DisplayWidth.sanitize(choice.text).prefix(8))
            let rowText = (0..<grid.width).map { grid[$0, row].text }.joined()
            if rowText.contains(label) { return index }
        }
        return nil
    }

    // MARK: Frames

    private func redraw() {
        dirty = false
        let model = model()
        requestPicture(for: model)
        screen.draw(PageRenderer.render(model, width: screen.width, height: screen.height))
    }

    /// The frame for the current state.
    func frame() -> CellGrid {
        PageRenderer.render(model(), width: screen.width, height: screen.height)
    }

    private func model() -> ScreenModel {
        var content: ScreenModel.Content = .blank
        var position = ""
        switch viewModel.state {
        case .starting:
            content = .blank
        case .loading(let location, let subjects):
            if let since = loadingSince, ContinuousClock.now - since >= Self.loadingGrace {
                content = .loading(loadingProgress.text(waitingFor: subjects))
            } else if let page = lastPage {
                content = .page(view(page))
            }
            position = location.beatId
        case .page(let page):
            content = .page(view(page))
            position = positionText(page)
        case .failed(let failure):
            content = .error(message: failure.error.readerMessage, canSkip: failure.canSkip, canGoBack: failure.canGoBack)
            position = failure.location.beatId
        case .finished(let page):
            content = .finished(view(page))
            position = positionText(page) + " · the end"
        }
        return ScreenModel(
            storyTitle: storyTitle, content: content, position: position, soundStatus: soundText(),
            notice: notice, showHelp: showHelp, confirmRestart: confirmRestart, statsLines: statsLines)
    }

    private func view(_ page: PageState) -> PageView {
        let path = page.page.imageUrl
        let cells = path != nil && shownPicture?.key.path == path ? shownPicture?.cells : nil
        let missing = cells == nil && path.map { failedPictures.contains($0) } == true
        return PageView(page: page.page, revealedLines: page.revealedLines, selectedChoice: selectedChoice,
                        picture: cells, pictureMissing: missing, scroll: scroll)
    }

    private func positionText(_ page: PageState) -> String {
        "\(page.beat.id) · page \(page.pageIndex + 1)/\(page.beat.pages.count)"
    }

    /// What `m`, `+` and `-` say when there is no sound to change; nil when there is.
    private var soundOffNotice: String? {
        guard let sound else { return "sound is off (--no-sound)" }
        switch sound.state {
        case .off: return "sound is off (no server)"
        case .disabled: return "sound is off (--no-sound)"
        case .sampleCache, .stream, .muted: return nil
        }
    }

    private func soundText() -> String {
        guard let sound else { return "sound: off" }
        switch sound.state {
        case .sampleCache: return "sound: on \(sound.volume)%"
        case .stream: return "sound: on (stream) \(sound.volume)%"
        case .muted: return "sound: muted"
        case .off: return "sound: off (no server)"
        case .disabled: return "sound: off"
        }
    }
}
