import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaImage
import PajamaStoryFormat

/// Every decision of the reader loop, as a value with no I/O: it takes events (keys, resizes, ticks, the
/// view model's state, pictures, loading progress, sound status, stats) and returns effects for the
/// controller to run (`ReaderEffect`) and the frame to draw (`render()`). Time comes in with the events,
/// so tests drive it with instants of their own.
public struct ReaderPresenter: Sendable {
    /// The most choice pages whose selection is kept (`choicesSelected`); past it they are forgotten.
    static let choicesRemembered = 1000
    /// "Loading..." shows only when a load takes longer than this, so fast loads never flash it.
    public static let loadingGrace: Duration = .milliseconds(150)

    public typealias Instant = ContinuousClock.Instant

    /// Something that happened, for the presenter.
    public enum Event: Sendable {
        case key(Key)
        case resize(width: Int, height: Int)
        /// Time passed (the loading grace period).
        case tick
        /// The view model's state (a loading state names what it waits for).
        case state(ReaderState)
        /// Something the reader should be told once.
        case notice(String)
        /// A story loading event (the Loading screen's byte count).
        case loading(LoadingEvent)
        case pictureLoaded(AssetPath, StoryImage)
        case pictureFailed(AssetPath)
        /// Cells rendered for a `requestPicture` effect.
        case pictureCells(PictureCache.Key, PictureCells)
        /// A quick draft of those cells (`PictureCache.draft`), shown until they arrive; a page left before
        /// they did asks for them again when it is shown next.
        case pictureDraft(PictureCache.Key, PictureCells)
        case sound(SoundStatus)
        /// The `--stats` panel's lines.
        case stats([String])
        /// A theme was applied (after `applyTheme`): its name and how pictures look under it.
        case themeApplied(name: String, look: PictureLook)
        /// How the terminal draws pictures changed (its late replies said pixels): the page's picture is
        /// rendered again for it.
        case pictureLook(PictureLook)
        /// The co-reading role changed (followers came or went).
        case role(ReaderRole)
        /// The owner of the session this reader follows ended it: reading on solo.
        case sessionEnded
        /// The co-readers' votes on the owner's page (a session that takes votes: ReaderPresenter+Votes.swift).
        case votes(ChoiceVotes)
        /// The story's status page at beat `beatId` (after an `openStatus` effect; nil: none there).
        case statusPage(StatusPage?, beatId: String)
        /// The pages read, for the backlog (after an `openBacklog` effect).
        case backlog([BacklogEntry])
        /// The story's bookmarks and autosaves (after an `openBookmarks` effect).
        case bookmarks([Bookmark])
        /// Whether every page reading can go to from the page at this location is loaded with its critical
        /// assets (the loading engine's answer, `StoryContent.nextPagesReady`): the status line's "▸ ready".
        case nextPagesReady(StoryLocation, Bool)
        /// The story's files changed (`--watch`) and its caches dropped what changed: the title as story.json
        /// now says, and the assets whose files changed (nil: any) (ReaderPresenter+LivePreview.swift).
        case storyChanged(title: String, assets: Set<AssetPath>?)
        /// What validating the story found after a change (`--watch`), one line each as `pajama validate`
        /// prints them; empty when the story is clean again (ReaderPresenter+LivePreview.swift).
        case problems([String])
        /// The story's files changed (`--watch`): the page shown is entered again from them, in turn with
        /// the keys (a `.reload` effect; `beats` nil: any beat may have changed).
        case reloadStory(beats: Set<String>?)
        /// The work an effect started on the view model (a move, the backlog...) is done: what waited
        /// behind it goes next.
        case workFinished
    }

    /// Modes that take keys first.
    enum Mode: Sendable, Equatable {
        case reading
        /// The help overlay: any key closes it.
        /// The help overlay, scrolled down by this many rows (↑ ↓ PgUp PgDn on a small terminal).
        case help(scroll: Int)
        /// "Restart from the beginning?": y restarts, any other key cancels.
        case confirmRestart
        /// The backlog (`b`) and the bookmarks (`o`): a list and what its items stand for
        /// (ReaderPresenter+Lists.swift).
        case backlog(PickList, [BacklogEntry])
        case bookmarks(PickList, [Bookmark])
        /// "Save a bookmark named:" with the name typed so far (ReaderPresenter+Lists.swift).
        case nameBookmark(NameField)
        /// The story's problems after a change (`--watch`), scrollable; Esc hides it until the next change.
        case problems(PickList)
        /// The story's status page (`i`), scrollable; any other key closes it (ReaderPresenter+Status.swift).
        case status(StatusOverlay)
    }

    /// Where the Loading screen is.
    private enum LoadingWait: Sendable {
        case idle
        /// A load started at `since`; the last page (or nothing) stays up until the grace period ends.
        case grace(since: Instant)
        /// "Loading..." is shown.
        case shown
    }

    var storyTitle: String
    /// The title of the story's status page (`i`: "Stats"), nil for a story without one.
    let statusPageTitle: String?
    /// Whether the status line names the beat and page (`--stats`); otherwise it says how far along the reading is.
    let showsPosition: Bool
    /// The page (beat and page ids) whose next pages the loading engine last said are ready.
    var nextReady: SeenPage?
    private(set) var width: Int
    private(set) var height: Int
    public private(set) var role: ReaderRole
    /// Whether the frame must be drawn again.
    public internal(set) var needsRedraw = true
    var mode = Mode.reading
    private(set) var reader = ReaderState.starting
    private var loadingWait = LoadingWait.idle
    private var loadingProgress = LoadingProgress()
    var sound: SoundStatus
    let themes: [String]
    var themeName: String
    var look: PictureLook
    var notice: String?
    var statsLines: [String]?
    var selectedChoice = 0
    /// The answer being typed on a question page, and the page it is for (a new page starts an empty one).
    var answerField = AnswerField()
    /// The choice number being typed, digit by digit (ReaderPresenter+Numbers.swift).
    var typedNumber: TypedNumber?
    /// The choice selected (or taken) on each choice page left, selected again when the reader comes back.
    var choicesSelected: [SeenPage: Int] = [:]
    /// The choice taken on this page visit (by number, click or Enter), kept in `choicesSelected` when it ends.
    var takenChoice: Int?
    /// How many times `r` retried the failure shown, in a row: a retry that fails again says so.
    var retries = 0
    var scroll = 0
    /// The reader moved the selection on this page visit: it stays on screen when the layout changes under it
    /// (the picture's rows arrive, the terminal shrinks), so Enter never takes a choice out of sight. Scrolling
    /// the text by hand lets it go.
    var keepsSelectionInView = false
    /// The last page shown, kept on screen while a short load is inside its grace period.
    private(set) var lastPage: PageState?
    private var lastLocation: StoryLocation?
    /// The picture of the page on screen (decoded), the one loading, and those that failed (their pages show
    /// "picture unavailable"; entering one tries again).
    var picture: (path: AssetPath, image: StoryImage)?
    var pictureLoading: AssetPath?
    var failedPictures: Set<AssetPath> = []
    /// The latest cells received for the page's picture, and the render asked for last.
    var shownPicture: (key: PictureCache.Key, cells: PictureCells, isDraft: Bool)?
    var requestedPicture: PictureCache.Key?
    /// Where the choices of the last frame drawn are.
    var choiceBoxes: [ChoiceHitBox] = []
    /// Auto-forward (`a`) and its pace (`[`, `]`), kept while it is off (ReaderPresenter+AutoForward.swift).
    var autoForward = AutoForward.off
    var autoForwardPace = ReaderPresenter.defaultAutoForwardPace
    /// What the last validation after a change found (`--watch`); the status line marks them while there are any.
    var problems: [String] = []
    /// The work on the view model under way, and what waits behind it (ReaderPresenter+Work.swift).
    var work = ReaderWork.idle
    /// Read aloud (`v`): on, off, or why it cannot be used.
    var readAloud: ReadAloudSwitch
    /// Timed text (`w`; the settings' `timedText`): off, every page is shown whole and auto-forward is not offered.
    var timedText: Bool
    /// Captions of sounds (`c`, remembered): each sound's caption told as it plays (ReaderPresenter+Captions.swift).
    public var captions = false
    /// The co-readers' votes, in a session that takes them (nil: it takes none; ReaderPresenter+Votes.swift).
    var votes: ChoiceVotes?

    public init(
        storyTitle: String, width: Int, height: Int, themes: [String], themeName: String, look: PictureLook,
        sound: SoundStatus, role: ReaderRole = .solo, showsPosition: Bool = false,
        readAloud: ReadAloudSwitch = .missing(soundOn: false), timedText: Bool = true, statusPageTitle: String? = nil
    ) {
        self.statusPageTitle = statusPageTitle
        self.readAloud = readAloud
        self.timedText = timedText
        self.storyTitle = storyTitle
        self.showsPosition = showsPosition
        self.width = width
        self.height = height
        self.themes = themes
        self.themeName = themeName
        self.look = look
        self.sound = sound
        self.role = role
    }

    /// Folds `event` in (at `now`) and returns what the controller must do, in order.
    public mutating func handle(_ event: Event, at now: Instant) -> [ReaderEffect] {
        switch event {
        case .key(let key):
            return arrive(key, at: now)
        case .workFinished:
            return workFinished(at: now)
        case .reloadStory(let beats):
            return reloadStory(beats: beats)
        case .resize(let width, let height):
            (self.width, self.height) = (width, height)
            keepSelectionInView()
        case .tick:
            if case .grace(let since) = loadingWait, case .loading = reader, now - since >= Self.loadingGrace {
                loadingWait = .shown
                needsRedraw = true
            }
            guard case .idle = work else { return [] }  // auto-forward's move waits its turn like a key
            return started(autoForwardTick(at: now))
        case .state(let state):
            return handle(state, at: now)
        case .notice(let text):
            notice = text
        case .loading(let event):
            loadingProgress.handle(event)
            if case .loading = reader, case .shown = loadingWait { needsRedraw = true }
            // A finished load may be a next page's beat or asset: asked again until they are all in.
            if case .finished = event, case .page(let page) = reader, nextReady != SeenPage(page.location) {
                return [.checkNextPages(page)]
            }
            return []
        case .pictureLoaded(let path, let image):
            if pictureLoading == path { pictureLoading = nil }
            if pageState?.page.imageUrl == path {
                failedPictures.remove(path)
                picture = (path, image)
            }
        case .pictureFailed(let path):
            if pictureLoading == path { pictureLoading = nil }
            failedPictures.insert(path)
        case .pictureCells(let key, let cells):
            guard requestedPicture == key else { return [] }  // superseded by a newer size or page
            shownPicture = (key, cells, false)
            keepSelectionInView()
        case .pictureDraft(let key, let cells):
            guard requestedPicture == key, shownPicture?.key != key || shownPicture?.isDraft == true else { return [] }
            shownPicture = (key, cells, true)
            keepSelectionInView()
        case .sound(let status):
            guard status != sound else { return [] }
            sound = status
        case .stats(let lines):
            statsLines = lines
        case .statusPage(let page, let beatId):
            statusArrived(page, beatId: beatId)
        case .themeApplied(let name, let look):
            themeName = name
            self.look = look
            notice = "theme: \(name)"
        case .pictureLook(let look):
            self.look = look
        case .role(let role):
            self.role = role
            if role == .solo { votes = nil }
        case .votes(let new):
            votesArrived(new)
        case .sessionEnded:
            guard case .follower(let owner) = role else { return [] }
            role = .solo
            votes = nil
            notice = "\(owner) ended the session"
        case .backlog(let entries):
            openBacklog(entries)
        case .bookmarks(let bookmarks):
            openBookmarks(bookmarks)
        case .storyChanged(let title, let assets):
            return storyChanged(title: title, assets: assets)
        case .problems(let lines):
            showProblems(lines)
        case .nextPagesReady(let location, let ready):
            let page = SeenPage(location)
            if ready, nextReady != page {
                nextReady = page
            } else if !ready, nextReady == page {
                nextReady = nil
            } else {
                return []
            }
        }
        needsRedraw = true
        return []
    }

    /// When the controller must come back with a `.tick` (the end of the loading grace period, auto-forward's
    /// pause), if ever.
    public var deadline: Instant? {
        var grace: Instant?
        if case .grace(let since) = loadingWait, case .loading = reader { grace = since + Self.loadingGrace }
        return [grace, autoForwardDeadline].compactMap { $0 }.min()
    }

    // MARK: State

    var pageState: PageState? {
        switch reader {
        case .page(let p), .finished(let p, _): p
        default: nil
        }
    }

    /// What the Loading screen says once the grace period is over; nil inside it (the last page stays up).
    var loadingText: String? {
        if case .shown = loadingWait, case .loading(_, let subjects) = reader { return loadingProgress.text(waitingFor: subjects) }
        return nil
    }

    private mutating func handle(_ state: ReaderState, at now: Instant) -> [ReaderEffect] {
        reader = state
        needsRedraw = true
        autoForwardFollow(state, at: now)
        switch state {
        case .failed where retries > 0:
            notice = retries == 1 ? "tried again: it failed again" : "tried again \(retries) times: it failed again"
        case .loading, .failed, .starting: break
        case .page, .finished: retries = 0
        }
        if case .loading = state {
            if case .idle = loadingWait { loadingWait = .grace(since: now) }
        } else {
            loadingWait = .idle
        }
        var effects: [ReaderEffect] = []
        if case .page(let page) = state {
            // A newly revealed line scrolls into view when the page is longer than the screen.
            if let last = lastPage, last.location.beatId == page.location.beatId, last.location.pageId == page.location.pageId,
               page.revealedLines > last.revealedLines {
                lastPage = page
                scroll = PageRenderer.maximumScroll(for: model(), width: width, height: height)
                tellCaptions(of: page.page, .tap)
            }
            lastPage = page
            if page.location.beatId != lastLocation?.beatId || page.location.pageId != lastLocation?.pageId {
                // A new page visit: the last one's picture work ends. The choice selected on a choice page is
                // kept for a return to it (back, the backlog): the one taken, or last highlighted.
                if let last = lastLocation {
                    let kept = takenChoice ?? selectedChoice
                    if choicesSelected.count >= Self.choicesRemembered { choicesSelected.removeAll() }
                    choicesSelected[SeenPage(last)] = kept > 0 ? kept : nil
                }
                takenChoice = nil
                selectedChoice = min(choicesSelected[SeenPage(page.location)] ?? 0, max(0, page.page.choices.count - 1))
                scroll = 0
                keepsSelectionInView = selectedChoice > 0
                nextReady = nil  // asked again for this visit: what was loaded may have been evicted since
                lastLocation = page.location
                (pictureLoading, requestedPicture) = (nil, nil)  // their tasks are cancelled: ask again
                effects.append(.leavePage)
                effects += loadPicture(of: page.page)
                tellCaptions(of: page.page, .pageEnter)
            }
            if keepsSelectionInView, scroll == 0 { keepSelectionInView() }
            if nextReady != SeenPage(page.location) { effects.append(.checkNextPages(page)) }
        }
        if case .finished(let page, _) = state { effects += loadPicture(of: page.page) }
        // The page shown again in the same visit (`--watch`) asks for its picture when it has none, loaded or
        // loading: its beat may name another now, or the load came back while the page was being entered again
        // (and the state was loading, with no page to give the picture to). A picture that failed waits for
        // the page to be entered anew.
        if case .page(let page) = state, let path = page.page.imageUrl, !failedPictures.contains(path) {
            effects += loadPicture(of: page.page)
        }
        return effects
    }

    /// After a layout change: the selection back in view, if the reader moved it (`keepsSelectionInView`).
    mutating func keepSelectionInView() {
        guard keepsSelectionInView else { return }
        scroll = PageRenderer.scroll(showingChoice: selectedChoice, for: model(), width: width, height: height, from: scroll)
    }

    mutating func loadPicture(of page: Page) -> [ReaderEffect] {
        guard let path = page.imageUrl, picture?.path != path, pictureLoading != path else { return [] }
        pictureLoading = path
        return [.loadPicture(path)]
    }
}
