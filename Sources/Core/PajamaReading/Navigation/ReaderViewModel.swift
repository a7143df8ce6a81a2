import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage

/// The navigator: the reader's own moves (`changePage`) and programmatic ones (`navigateToLocation`),
/// line-by-line reveal and gating on critical assets. Three parts, each holding its own state:
/// `Navigation` (where the reader is: one private `Phase`), `ReadingRecord` (history, pages seen, the
/// reading's figures, and everything written of it through one write-behind writer) and `PageSounds`
/// (the sounds of the page visit).
///
/// Lives on the main actor like the UI it serves. What happens is pushed once, on the streams `events()`
/// returns; `state` is derived from the navigation.
@MainActor
public final class ReaderViewModel {
    /// Where the reader is; a change of its `state` is published as `.stateChanged`.
    var navigation = Navigation() {
        didSet {
            let now = navigation.state
            if now != oldValue.state { emit(.stateChanged(now)) }
        }
    }

    /// What the reader shows (derived from the navigation).
    public var state: ReaderState { navigation.state }
    /// Where the reader has been.
    public var history: ReadingHistory { record.history }

    let content: any StoryContent
    let record: ReadingRecord
    let sounds: PageSounds
    /// The story's metadata as the content has it now (story.json may be read again: `--watch`).
    var manifest: StoryManifest { content.manifest }
    /// Every page shown whole when it is entered, whatever the story's `lineByLine` says: the reader's "no
    /// timed text" setting (docs/reader.md, "No timed text"). Turned on, the page on screen is shown whole too.
    public var revealsWholePages = false {
        didSet { if revealsWholePages, !oldValue { revealWholePage() } }
    }
    /// Whether a text page is revealed a line a tap.
    var revealsLineByLine: Bool { manifest.lineByLine && !revealsWholePages }
    private let hub: EventHub<NavigatorEvent>
    /// Hands each entered location to the content (the preloader slides its window), in order, from one
    /// task this view model owns (cancelled by `close()`).
    private let moves: AsyncStream<StoryLocation>.Continuation
    private let mover: Task<Void, Never>

    /// `progress` is where reading progress is kept (nil: not kept); it is written behind the reader, at
    /// most once per `progressInterval` of `progressClock`, once the reader has made no move for `progressSettle`,
    /// and at the story's end and `close()`.
    /// `bookmarks` is where bookmarks and the autosaves before each choice go (nil: nowhere).
    public init(content: any StoryContent, sound: SoundClient?, progress: ProgressStore?, bookmarks: BookmarkStore? = nil,
                historyLimit: Int = 500, contentKeptFor: Int = 20,
                progressInterval: Duration = RecordWriter.defaultInterval, progressSettle: Duration = RecordWriter.defaultSettle,
                progressClock: any Clock<Duration> = ContinuousClock()) {
        self.content = content
        let hub = EventHub<NavigatorEvent>(bufferSize: 1024)
        self.hub = hub
        record = ReadingRecord(storyId: content.manifest.id, progress: progress, bookmarks: bookmarks, historyLimit: historyLimit,
                               contentKeptFor: contentKeptFor, interval: progressInterval, settle: progressSettle, clock: progressClock,
                               hub: hub)
        sounds = PageSounds(content: content, sound: sound, hub: hub)
        let (locations, moves) = AsyncStream<StoryLocation>.makeStream()
        self.moves = moves
        mover = Task { [content] in
            for await location in locations { await content.readerMoved(to: location) }
        }
    }

    /// A new stream of every event from now on (state changes with their loading subjects, pages entered,
    /// sounds played and skipped, notices); any number of subscribers, each with its own buffer. The
    /// streams end when the view model is closed.
    public func events() -> AsyncStream<NavigatorEvent> { hub.subscribe() }

    /// Calls `observer` with every event from now on, at once, on the thread that publishes it (the main actor
    /// for the reader's moves), in order, until the view model is closed: for what must see every event as it
    /// happens without a task woken for each (the transcript: `TranscriptRecorder`).
    public func observe(_ observer: @escaping @Sendable (NavigatorEvent) -> Void) { hub.observe(observer) }

    func emit(_ event: NavigatorEvent) { hub.publish(event) }

    /// The current location, when a page (or the end) is shown.
    public var location: StoryLocation? {
        switch state {
        case .page(let p), .finished(let p, _): p.location
        case .loading(let l, _): l
        case .failed(let f): f.location
        case .starting: nil
        }
    }

    /// A sound someone else cued (co-reading: the owner's tap or choice sound), played on this reader's page
    /// visit: at once when loaded, else loaded and played if the reader is still on the visit (leaving the
    /// page cancels it, as it does the reader's own sounds). Nothing when there is no sound or no page yet.
    public func playCued(_ path: AssetPath, cue: SoundCue) {
        guard let visit = navigation.currentVisit else { return }
        sounds.playCued(path, cue: cue, on: visit)
    }

    /// Tells the content where the reader is now (see `moves`), when it follows the reader (a content without a
    /// preloader is not woken for every move).
    func tellContentReaderMoved(to location: StoryLocation) {
        if content.followsReader { moves.yield(location) }
    }

    // MARK: Starting

    /// Starts reading: at `requested` (e.g. `--start`), else where the saved progress says, else at the
    /// story's start. `restart` forgets the saved progress first. A requested start begins a fresh
    /// history: the saved progress is replaced from there on (back never jumps into an earlier read).
    /// Either way the endings found so far are kept.
    /// `bookmark` opens a bookmark: a requested start at its place, with its history.
    public func start(at requested: StoryLocation? = nil, restart: Bool = false, bookmark: Bookmark? = nil) async {
        let requested = bookmark?.location ?? requested
        var target = Target.beatStart(manifest.startBeatId)
        if let saved = record.loadSaved() {
            if restart {
                record.forgetSavedProgress()
            } else if requested == nil {
                if let origin = saved.origin, case .failed(let reason) = await content.restore(origin) {
                    // A made story (ink) whose way back could not be rebuilt: said, and read from the start.
                    emit(.notice(reason))
                } else {
                    record.resume(saved, history: placesStillInTheStory(saved.history.dropLast()))
                    target = .location(saved.location)
                }
            }
        } else if restart {
            record.forgetSavedProgress()
        }
        if let requested {
            if let origin = bookmark?.origin, case .failed(let reason) = await content.restore(origin) {
                emit(.notice(reason))
                await enter(Entry(target: target, beatHint: nil, recordInHistory: true, choiceSound: nil), resolvingInvalid: true)
                return
            }
            if let bookmark { record.restoreHistory(placesStillInTheStory(bookmark.history.dropLast())) }
            await enter(Entry(target: .location(requested), beatHint: nil, recordInHistory: true, choiceSound: nil))
            return
        }
        await enter(Entry(target: target, beatHint: nil, recordInHistory: true, choiceSound: nil), resolvingInvalid: true)
    }

    /// The saved places whose beat story.json still lists: back to a place in a beat that is gone would
    /// lead to "not found" (and from the oldest place, nowhere). The place to open is resolved on entry.
    private func placesStillInTheStory(_ places: ArraySlice<StoryLocation>) -> [StoryLocation] {
        places.filter { manifest.beats?.contains($0.beatId) ?? true }
    }

    /// Starts over from the story's start, forgetting history and progress.
    public func restart() async {
        record.forgetReading()
        sounds.stopBackgroundSound()
        await enter(Entry(target: .beatStart(manifest.startBeatId), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    // MARK: Moves

    /// The reader's own moves.
    public func changePage(_ move: PageMove) async {
        switch move {
        case .advance: await advance()
        case .back: await back()
        case .choose(let index): await choose(index)
        case .answer(let text): await answer(text)
        case .skipSeen: await skipSeen()
        }
    }

    /// A programmatic move (resume, co-reading): goes to `location`, recorded in the history.
    public func navigateToLocation(_ location: StoryLocation) async {
        await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// Tries the failed load again.
    public func retry() async {
        guard let (_, attempt) = navigation.failure else { return }
        await enter(attempt.entry)
    }

    /// Shows the page without the asset that failed (never past a missing beat).
    public func skip() async {
        guard let (failure, attempt) = navigation.failure, failure.canSkip else { return }
        await enter(attempt.entry, skipAssets: true)
    }

    /// The text page on screen with all its lines revealed (its tap sounds are not played: nothing was tapped).
    private func revealWholePage() {
        guard let (shown, _) = navigation.page, case .text(let lines) = shown.page.kind, shown.revealedLines < lines.count else { return }
        var page = shown
        page.revealedLines = lines.count
        page.location.lineIndex = lines.count - 1
        record.updateCurrent(page.location)
        navigation.update(page)
        save(page.location)
    }

    private func advance() async {
        guard let (shown, visit) = navigation.page else { return }
        var page = shown
        sounds.playTapSounds(of: page, on: visit)
        if case .text(let lines) = page.page.kind, page.revealedLines < lines.count {
            page.revealedLines += 1
            page.location.lineIndex = page.revealedLines - 1
            record.updateCurrent(page.location)
            navigation.update(page)
            save(page.location)
            return
        }
        await goForward(from: page, on: visit)
    }

    /// Leaves `page` forward (never a choice page): the next page of its beat, the next beat, or the end screen.
    func goForward(from page: PageState, on visit: PageVisit) async {
        if case .choice = page.page.kind { return }
        if case .question = page.page.kind { return }
        if page.pageIndex + 1 < page.beat.pages.count {
            let next = page.beat.pages[page.pageIndex + 1]
            await enter(Entry(target: .location(StoryLocation(beatId: page.beat.id, pageId: next.id)), beatHint: page.beat,
                              recordInHistory: true, choiceSound: nil))
        } else if let next = page.beat.nextBeatId {
            await enter(Entry(target: .beatStart(next), beatHint: nil, recordInHistory: true, choiceSound: nil))
        } else {
            await finish(page, on: visit)
        }
    }

    private func back() async {
        // From the end, back shows the last page again.
        guard navigation.isSettled, !navigation.leaveEndScreen() else { return }
        if let (_, attempt) = navigation.failure, attempt.entry.recordInHistory, let left = history.current {
            // A move forward failed (a missing beat, a critical asset): it was never recorded, so the page it
            // left is still the history's current entry. Back shows that page again.
            await enter(Entry(target: .location(left.location), beatHint: left.beat, recordInHistory: false, choiceSound: nil))
            return
        }
        guard let entry = record.back() else { return }
        await enter(Entry(target: .location(entry.location), beatHint: entry.beat, recordInHistory: false, choiceSound: nil))
    }

    private func choose(_ index: Int) async {
        guard let (page, _) = navigation.page, case .choice(_, let choices) = page.page.kind, choices.indices.contains(index) else { return }
        let choice = choices[index]
        autosave()
        let sound = choice.soundURL.map { ($0, index) }
        if let (path, index) = sound { emit(.soundCued(path, .choice(index))) }
        await enter(Entry(target: .beatStart(choice.targetBeatId), beatHint: nil, recordInHistory: true, choiceSound: sound,
                          choice: TakenChoice(from: page.location, index: index, text: choice.text)))
    }

    /// Answers the question page shown with `text` (normalised), when the question takes it: the beat the
    /// answer names is entered, as a choice's target is (autosaved before, recorded, published as taken).
    private func answer(_ text: String) async {
        guard let (page, _) = navigation.page, case .question(let question) = page.page.kind, question.problem(with: text) == nil else { return }
        let answer = Question.normalized(text)
        autosave()
        await enter(Entry(target: .beatStart(question.beatId(answering: answer)), beatHint: nil, recordInHistory: true, choiceSound: nil,
                          choice: TakenChoice(from: page.location, index: 0, text: answer, answer: answer)))
    }

    // MARK: Progress

    /// Hands the progress to the record's writer (no disk work here).
    func save(_ location: StoryLocation) {
        record.save(location, storyVersion: manifest.version, origin: shownBeat(at: location)?.origin)
    }

    /// The beat of the page shown (or left by a move under way) when it is the one at `location`.
    private func shownBeat(at location: StoryLocation) -> Beat? {
        if let page = navigation.shownPage { return page.beat.id == location.beatId ? page.beat : history.current?.beat }
        return history.current?.beat?.id == location.beatId ? history.current?.beat : nil
    }

    /// Writes the progress handed over and not yet written (the story's end; tests).
    public func flushProgress() async { await record.flush() }

    /// Settings to remember (the theme), written behind the reader like the progress; `write` writes them
    /// to `file` and returns its problem, which is told as a notice.
    public func remember(settingsIn file: URL, _ write: @escaping @Sendable () -> String?) {
        record.saveSettings(to: file, write)
    }

    /// Ends the session: every task it started is cancelled (sounds loading for a page, the hand-off to
    /// the preloader), no move under way commits, the newest progress and bookmarks are on disk and the
    /// writer has stopped, and the event streams end. Called by the session's owner when the reader quits
    /// (a key or a quit signal).
    public func close() async {
        guard navigation.close() else { return }
        sounds.stopBackgroundSound()
        moves.finish()
        mover.cancel()
        await record.close()
        hub.finish()
    }

    deinit {
        mover.cancel()
        hub.finish()
    }
}
