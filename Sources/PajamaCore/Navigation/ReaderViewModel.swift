import Foundation

/// The navigator: the reader's own moves (`changePage`) and programmatic ones (`navigateToLocation`),
/// line-by-line reveal, gating on critical assets, sound triggers, history and saved progress.
///
/// Lives on the main actor like the UI it serves. Where the reader is lives in one `Phase`; a move under
/// way is an `Attempt` held by the phase, so a load that finishes after the reader moved elsewhere (its
/// attempt is no longer the phase's) never changes what is shown. What happens is pushed once, on the
/// streams `events()` returns; `state` is derived from the phase.
@MainActor
public final class ReaderViewModel {
    /// Where the reader is. Every transition assigns `phase`; the public `state` is derived from it and a
    /// change of that state is published as `.stateChanged`. (Internal, not private, only so the
    /// extensions in ReaderViewModel+Entering.swift and ReaderViewModel+Sounds.swift see it.)
    enum Phase {
        /// Nothing read yet.
        case idle
        /// A move under way; `shown` is what the reader sees meanwhile (the state the move left, until it
        /// has to wait: then `.loading`).
        case entering(Attempt, shown: ReaderState)
        /// A page shown, and the visit that owns its tasks (sounds loading for it).
        case page(PageState, PageVisit)
        /// A move failed; the attempt is what retry and skip try again and what back knows about.
        case failed(ReaderFailure, Attempt)
        /// Past the last page of an ending: the end screen (the visit goes on: back shows the page again).
        case finished(PageState, EndSummary, PageVisit)
        /// `close()` was called: no move commits and nothing new starts; `shown` stays on screen.
        case closed(ReaderState)
    }

    var phase: Phase = .idle {
        didSet {
            let now = Self.state(of: phase)
            if now != Self.state(of: oldValue) { emit(.stateChanged(now)) }
        }
    }

    /// What the reader shows (derived from the phase).
    public var state: ReaderState { Self.state(of: phase) }
    public internal(set) var history: ReadingHistory

    let content: any StoryContent
    let sound: SoundClient?
    /// Writes progress behind the reader; owned by this session and closed by `close()`.
    let progress: ProgressWriter?
    /// The story's metadata as the content has it now (story.json may be read again: `--watch`).
    var manifest: StoryManifest { content.manifest }
    var pagesRead = 0
    var finishedOnce = false
    /// Choices taken in this reading, and the ending beats found so far (kept across restarts).
    var choicesMade = 0
    var endingsFound: [String] = []
    /// The pages seen of this story, across sessions and restarts (saved with the progress).
    var seenPages = SeenPages()
    /// How many endings the story has (see ReaderViewModel+Ending.swift).
    var endingsCount = EndingsCount.unknown
    private let hub: EventHub<ReaderEvent>
    /// Hands each entered location to the content (the preloader slides its window), in order, from one
    /// task this view model owns (cancelled by `close()`).
    private let moves: AsyncStream<StoryLocation>.Continuation
    private let mover: Task<Void, Never>
    /// Bookmarks and autosaves to write, and the task that writes them in order (ReaderViewModel+Bookmarks.swift;
    /// `close()` waits for it).
    let bookmarkWrites: AsyncStream<BookmarkWrite>.Continuation
    private let bookmarkWriter: Task<Void, Never>
    /// Whether bookmarks are kept (a store was given): without one, no autosave is made before a choice.
    let keepsBookmarks: Bool

    /// `progress` is where reading progress is kept (nil: not kept); it is written behind the reader, at
    /// most once per `progressInterval` of `progressClock`, once the reader has made no move for `progressSettle`,
    /// and at the story's end and `close()`.
    /// `bookmarks` is where bookmarks and the autosaves before each choice go (nil: nowhere).
    public init(content: any StoryContent, sound: SoundClient?, progress: ProgressStore?, bookmarks: BookmarkStore? = nil,
                historyLimit: Int = 500, contentKeptFor: Int = 20,
                progressInterval: Duration = ProgressWriter.defaultInterval, progressSettle: Duration = ProgressWriter.defaultSettle,
                progressClock: any Clock<Duration> = ContinuousClock()) {
        self.content = content
        self.sound = sound
        self.progress = progress.map { ProgressWriter(store: $0, interval: progressInterval, settle: progressSettle, clock: progressClock) }
        history = ReadingHistory(limit: historyLimit, contentKeptFor: contentKeptFor)
        let (locations, moves) = AsyncStream<StoryLocation>.makeStream()
        self.moves = moves
        mover = Task { [content] in
            for await location in locations { await content.readerMoved(to: location) }
        }
        let hub = EventHub<ReaderEvent>(bufferSize: 1024)
        self.hub = hub
        let (writes, bookmarkWrites) = AsyncStream<BookmarkWrite>.makeStream()
        self.bookmarkWrites = bookmarkWrites
        keepsBookmarks = bookmarks != nil
        bookmarkWriter = Self.bookmarkWriter(bookmarks, storyId: content.manifest.id, writes: writes, hub: hub)
    }

    /// A new stream of every event from now on (state changes with their loading subjects, pages entered,
    /// sounds played and skipped, notices); any number of subscribers, each with its own buffer. The
    /// streams end when the view model is closed.
    public func events() -> AsyncStream<ReaderEvent> { hub.subscribe() }

    func emit(_ event: ReaderEvent) { hub.publish(event) }

    static func state(of phase: Phase) -> ReaderState {
        switch phase {
        case .idle: .starting
        case .entering(_, let shown), .closed(let shown): shown
        case .page(let page, _): .page(page)
        case .failed(let failure, _): .failed(failure)
        case .finished(let page, let summary, _): .finished(page, summary)
        }
    }

    /// The page visit whose tasks are alive: the page shown, or the one a move under way (or failed) left.
    var currentVisit: PageVisit? {
        switch phase {
        case .idle, .closed: nil
        case .page(_, let visit), .finished(_, _, let visit): visit
        case .entering(let attempt, _), .failed(_, let attempt): attempt.leaving
        }
    }

    /// The current location, when a page (or the end) is shown.
    public var location: StoryLocation? {
        switch state {
        case .page(let p), .finished(let p, _): p.location
        case .loading(let l, _): l
        case .failed(let f): f.location
        case .starting: nil
        }
    }

    /// Tells the content where the reader is now (see `moves`).
    func handOff(_ location: StoryLocation) { moves.yield(location) }

    // MARK: Starting

    /// Starts reading: at `requested` (e.g. `--start`), else where the saved progress says, else at the
    /// story's start. `restart` forgets the saved progress first. A requested start begins a fresh
    /// history: the saved progress is replaced from there on (back never jumps into an earlier read).
    /// Either way the endings found so far are kept.
    /// `bookmark` opens a bookmark: a requested start at its place, with its history.
    public func start(at requested: StoryLocation? = nil, restart: Bool = false, bookmark: Bookmark? = nil) async {
        let requested = bookmark?.location ?? requested
        var target = Target.beatStart(manifest.startBeatId)
        if let progress {
            let (saved, warning) = progress.store.load(storyId: manifest.id)
            if let warning { emit(.notice(warning)) }
            // The endings found are kept whatever becomes of the rest (a restart, a requested start).
            endingsFound = saved?.endingsFound ?? []
            seenPages = SeenPages(saved?.seenPages)
            if restart {
                progress.remove(storyId: manifest.id)
            } else if let saved, requested == nil {
                if let origin = saved.origin, case .failed(let reason) = await content.restore(origin) {
                    // A made story (ink) whose way back could not be rebuilt: said, and read from the start.
                    emit(.notice(reason))
                } else {
                    history.restore(placesStillInTheStory(saved.history.dropLast()))
                    pagesRead = saved.pagesRead
                    finishedOnce = saved.finished
                    choicesMade = saved.choicesMade ?? 0
                    target = .location(saved.location)
                }
            }
        }
        if let requested {
            if let origin = bookmark?.origin, case .failed(let reason) = await content.restore(origin) {
                emit(.notice(reason))
                await enter(Entry(target: target, beatHint: nil, recordInHistory: true, choiceSound: nil), resolvingInvalid: true)
                return
            }
            if let bookmark { history.restore(placesStillInTheStory(bookmark.history.dropLast())) }
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
        history.clear()
        stopBackgroundSound()
        progress?.remove(storyId: manifest.id)
        pagesRead = 0
        finishedOnce = false
        choicesMade = 0
        await enter(Entry(target: .beatStart(manifest.startBeatId), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    // MARK: Moves

    /// The reader's own moves.
    public func changePage(_ move: PageMove) async {
        switch move {
        case .advance: await advance()
        case .back: await back()
        case .choose(let index): await choose(index)
        case .skipSeen: await skipSeen()
        }
    }

    /// A programmatic move (resume, co-reading): goes to `location`, recorded in the history.
    public func navigateToLocation(_ location: StoryLocation) async {
        await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// Tries the failed load again.
    public func retry() async {
        guard case .failed(_, let attempt) = phase else { return }
        await enter(attempt.entry)
    }

    /// Shows the page without the asset that failed (never past a missing beat).
    public func skip() async {
        guard case .failed(let failure, let attempt) = phase, failure.canSkip else { return }
        await enter(attempt.entry, skipAssets: true)
    }

    private func advance() async {
        guard case .page(var page, let visit) = phase else { return }
        playTapSounds(of: page, on: visit)
        if case .text(let lines) = page.page.kind, page.revealedLines < lines.count {
            page.revealedLines += 1
            page.location.lineIndex = page.revealedLines - 1
            history.updateCurrent(page.location)
            phase = .page(page, visit)
            save(page.location)
            return
        }
        await goOn(from: page, on: visit)
    }

    /// Leaves `page` forward (never a choice page): the next page of its beat, the next beat, or the end screen.
    func goOn(from page: PageState, on visit: PageVisit) async {
        if case .choice = page.page.kind { return }
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
        switch phase {
        case .finished(let page, _, let visit):
            // From the end, back shows the last page again.
            phase = .page(page, visit)
        case .failed(_, let attempt) where attempt.entry.recordInHistory && history.current != nil:
            // A move forward failed (a missing beat, a critical asset): it was never recorded, so the page it
            // left is still the history's current entry. Back shows that page again.
            guard let left = history.current else { return }
            await enter(Entry(target: .location(left.location), beatHint: left.beat, recordInHistory: false, choiceSound: nil))
        case .page, .failed:
            guard let entry = history.back() else { return }
            await enter(Entry(target: .location(entry.location), beatHint: entry.beat, recordInHistory: false, choiceSound: nil))
        case .idle, .entering, .closed:
            return
        }
    }

    private func choose(_ index: Int) async {
        guard case .page(let page, _) = phase, case .choice(_, let choices) = page.page.kind, choices.indices.contains(index) else { return }
        let choice = choices[index]
        autosave()
        let sound = choice.soundURL.map { ($0, index) }
        if let (path, index) = sound { emit(.soundCued(path, .choice(index))) }
        await enter(Entry(target: .beatStart(choice.targetBeatId), beatHint: nil, recordInHistory: true, choiceSound: sound,
                          choice: TakenChoice(from: page.location, index: index, text: choice.text)))
    }

    // MARK: Progress

    /// Hands the progress to the writer (no disk work here); a problem of an earlier write becomes a notice.
    func save(_ location: StoryLocation) {
        guard let progress else { return }
        let record = ReadingProgress(location: location, history: history.locations, finished: finishedOnce,
                                     storyVersion: manifest.version, pagesRead: pagesRead, choicesMade: choicesMade,
                                     endingsFound: endingsFound.isEmpty ? nil : endingsFound, seenPages: seenPages.pages,
                                     origin: shownBeat(at: location)?.origin)
        if let problem = progress.save(storyId: manifest.id, record) { emit(.notice(problem)) }
    }

    /// The beat of the page shown (or left by a move under way) when it is the one at `location`.
    private func shownBeat(at location: StoryLocation) -> Beat? {
        switch phase {
        case .page(let page, _), .finished(let page, _, _): page.beat.id == location.beatId ? page.beat : history.current?.beat
        default: history.current?.beat?.id == location.beatId ? history.current?.beat : nil
        }
    }

    /// Writes the progress handed over and not yet written (the story's end; tests).
    public func flushProgress() async {
        guard let progress else { return }
        if let problem = await progress.flush() { emit(.notice(problem)) }
    }

    /// Ends the session: every task it started is cancelled (sounds loading for a page, the hand-off to
    /// the preloader), no move under way commits, the newest progress is on disk and the writer has
    /// stopped, and the event streams end. Called by the session's owner when the reader quits (a key or a
    /// quit signal).
    public func close() async {
        if case .closed = phase { return }
        currentVisit?.end()
        stopBackgroundSound()
        phase = .closed(state)
        moves.finish()
        mover.cancel()
        bookmarkWrites.finish()
        await bookmarkWriter.value  // a bookmark saved just before quitting is on disk
        if let progress, let problem = await progress.close() { emit(.notice(problem)) }
        hub.finish()
    }

    deinit {
        mover.cancel()
        bookmarkWriter.cancel()
        progress?.cancel()
        hub.finish()
    }
}
