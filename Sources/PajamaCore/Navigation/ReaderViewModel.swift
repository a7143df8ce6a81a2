import Foundation

/// The navigator: the reader's own moves (`changePage`) and programmatic ones (`navigateToLocation`),
/// line-by-line reveal, gating on critical assets, sound triggers, history and saved progress.
///
/// Lives on the main actor like the UI it serves. Every asynchronous completion checks a generation
/// number, so a load that finishes after the reader moved elsewhere never changes what is shown.
@MainActor
public final class ReaderViewModel {
    public private(set) var state: ReaderState = .starting {
        didSet { if state != oldValue { emit(.stateChanged(state)) } }
    }
    public private(set) var history: ReadingHistory
    /// What a `.loading` state waits for: the beat, or the page's assets (for the Loading screen's text).
    public private(set) var loadingSubjects: [LoadSubject] = []
    /// Called for every event (state changes, sounds, notices).
    public var onEvent: (@MainActor (ReaderEvent) -> Void)?

    private let content: any StoryContent
    private let sound: (any SoundEngine)?
    /// Writes progress behind the reader; owned by this session and closed by `close()`.
    private let progress: ProgressWriter?
    private let manifest: StoryManifest
    private var generation = 0
    /// Counts page entries, so a late tap sound never plays on a page the reader has left.
    private var visit = 0
    /// Sounds that failed to load during this page visit: not asked for again until the page is
    /// entered again (a refusing server was asked once per tap).
    private var failedSounds: Set<AssetPath> = []
    private var pendingEntry: Entry?
    private var pagesRead = 0
    private var finishedOnce = false

    /// Where a move goes before its beat is known.
    private enum Target: Equatable {
        case location(StoryLocation)
        case beatStart(String)
    }

    private struct Entry {
        var target: Target
        var beatHint: Beat?
        var recordInHistory: Bool
        var choiceSound: (AssetPath, Int)?
    }

    /// `progress` is where reading progress is kept (nil: not kept); it is written behind the reader, at
    /// most once per `progressInterval` of `progressClock`, and at the story's end and `close()`.
    public init(content: any StoryContent, sound: (any SoundEngine)?, progress: ProgressStore?,
                historyLimit: Int = 500, contentKeptFor: Int = 20,
                progressInterval: Duration = ProgressWriter.defaultInterval, progressClock: any Clock<Duration> = ContinuousClock()) {
        self.content = content
        self.sound = sound
        self.progress = progress.map { ProgressWriter(store: $0, interval: progressInterval, clock: progressClock) }
        self.manifest = content.manifest
        history = ReadingHistory(limit: historyLimit, contentKeptFor: contentKeptFor)
    }

    /// The current location, when a page (or the end) is shown.
    public var location: StoryLocation? {
        switch state {
        case .page(let p), .finished(let p): p.location
        case .loading(let l): l
        case .failed(let f): f.location
        case .starting: nil
        }
    }

    private func emit(_ event: ReaderEvent) { onEvent?(event) }

    // MARK: Starting

    /// Starts reading: at `requested` (e.g. `--start`), else where the saved progress says, else at the
    /// story's start. `restart` forgets the saved progress first. A requested start begins a fresh
    /// history: the saved progress is replaced from there on (back never jumps into an earlier read).
    public func start(at requested: StoryLocation? = nil, restart: Bool = false) async {
        if let requested {
            await enter(Entry(target: .location(requested), beatHint: nil, recordInHistory: true, choiceSound: nil))
            return
        }
        var target = Target.beatStart(manifest.startBeatId)
        if restart {
            progress?.remove(storyId: manifest.id)
        } else if let progress {
            let (saved, warning) = progress.store.load(storyId: manifest.id)
            if let warning { emit(.notice(warning)) }
            if let saved {
                history.restore(Array(saved.history.dropLast()))
                pagesRead = saved.pagesRead
                finishedOnce = saved.finished
                target = .location(saved.location)
            }
        }
        await enter(Entry(target: target, beatHint: nil, recordInHistory: true, choiceSound: nil), resolvingInvalid: true)
    }

    /// Starts over from the story's start, forgetting history and progress.
    public func restart() async {
        history.clear()
        progress?.remove(storyId: manifest.id)
        pagesRead = 0
        finishedOnce = false
        await enter(Entry(target: .beatStart(manifest.startBeatId), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    // MARK: Moves

    /// The reader's own moves.
    public func changePage(_ move: PageMove) async {
        switch move {
        case .advance: await advance()
        case .back: await back()
        case .choose(let index): await choose(index)
        }
    }

    /// A programmatic move (resume, co-reading): goes to `location`, recorded in the history.
    public func navigateToLocation(_ location: StoryLocation) async {
        await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: true, choiceSound: nil))
    }

    /// Tries the failed load again.
    public func retry() async {
        guard case .failed = state, let entry = pendingEntry else { return }
        await enter(entry)
    }

    /// Shows the page without the asset that failed (never past a missing beat).
    public func skip() async {
        guard case .failed(let failure) = state, failure.canSkip, let entry = pendingEntry else { return }
        await enter(entry, skipAssets: true)
    }

    private func advance() async {
        guard case .page(var page) = state else { return }
        playTapSounds(of: page)
        if case .text(let lines) = page.page.kind, page.revealedLines < lines.count {
            page.revealedLines += 1
            page.location.lineIndex = page.revealedLines - 1
            history.updateCurrent(page.location)
            state = .page(page)
            save(page.location)
            return
        }
        if case .choice = page.page.kind { return }
        if page.pageIndex + 1 < page.beat.pages.count {
            let next = page.beat.pages[page.pageIndex + 1]
            await enter(Entry(target: .location(StoryLocation(beatId: page.beat.id, pageId: next.id)), beatHint: page.beat,
                              recordInHistory: true, choiceSound: nil))
        } else if let next = page.beat.nextBeatId {
            await enter(Entry(target: .beatStart(next), beatHint: nil, recordInHistory: true, choiceSound: nil))
        } else {
            generation += 1
            finishedOnce = true
            state = .finished(page)
            save(page.location)
            await flushProgress()
        }
    }

    private func back() async {
        switch state {
        case .page, .finished, .failed: break
        default: return
        }
        if case .finished(let page) = state {
            // From the end, back shows the last page again.
            state = .page(page)
            return
        }
        if case .failed = state, let failed = pendingEntry, failed.recordInHistory, let left = history.current {
            // A move forward failed (a missing beat, a critical asset): it was never recorded, so the page it
            // left is still the history's current entry. Back shows that page again.
            await enter(Entry(target: .location(left.location), beatHint: left.beat, recordInHistory: false, choiceSound: nil))
            return
        }
        guard let entry = history.back() else { return }
        await enter(Entry(target: .location(entry.location), beatHint: entry.beat, recordInHistory: false, choiceSound: nil))
    }

    /// Whether back leads somewhere from the failure of `entry` (see `back`): to the page a forward move
    /// left, or further back after a failed move back.
    private func canGoBack(afterFailing entry: Entry) -> Bool {
        entry.recordInHistory ? history.current != nil : history.canGoBack
    }

    private func choose(_ index: Int) async {
        guard case .page(let page) = state, case .choice(_, let choices) = page.page.kind, choices.indices.contains(index) else { return }
        let choice = choices[index]
        let sound = choice.soundURL.map { ($0, index) }
        await enter(Entry(target: .beatStart(choice.targetBeatId), beatHint: nil, recordInHistory: true, choiceSound: sound))
    }

    // MARK: Entering a page

    private func enter(_ entry: Entry, skipAssets: Bool = false, resolvingInvalid: Bool = false) async {
        generation += 1
        let current = generation
        pendingEntry = entry
        let beatId: String
        switch entry.target {
        case .location(let l): beatId = l.beatId
        case .beatStart(let id): beatId = id
        }
        // Choice sounds play at the choice, if loaded; else once loaded, if the reader is still where it led.
        var choiceSoundToLoad: (AssetPath, Int)?
        if let (path, index) = entry.choiceSound, !skipAssets {
            if !(await play(path, cue: .choice(index))) { choiceSoundToLoad = (path, index) }
            guard current == generation else { return }
        }
        var beat: Beat? = entry.beatHint?.id == beatId ? entry.beatHint : nil
        if beat == nil { beat = await content.cachedBeat(beatId) }
        guard current == generation else { return }
        if beat == nil {
            loadingSubjects = [.beat(beatId)]
            state = .loading(placeholderLocation(entry.target))
            do {
                beat = try await content.loadBeat(beatId)
            } catch {
                guard current == generation else { return }
                if resolvingInvalid, beatId != manifest.startBeatId, error.kind == .notFound || error.kind == .invalidFormat {
                    // The story changed under the saved place: go to the nearest earlier place that still exists.
                    if let (index, location) = await nearestValidEntry(excluding: beatId) {
                        guard current == generation else { return }
                        emit(.notice("the saved place (beat \(beatId)) is no longer in this story; going back to beat \(location.beatId)"))
                        history.restore(Array(history.locations.prefix(index)))
                        await enter(Entry(target: .location(location), beatHint: nil, recordInHistory: true, choiceSound: nil),
                                    resolvingInvalid: true)
                        return
                    }
                    guard current == generation else { return }
                    emit(.notice("the saved place (beat \(beatId)) is no longer in this story; starting from the beginning"))
                    history.clear()
                    await enter(Entry(target: .beatStart(manifest.startBeatId), beatHint: nil, recordInHistory: true, choiceSound: nil))
                    return
                }
                state = .failed(ReaderFailure(error: error, location: placeholderLocation(entry.target), canSkip: false,
                                              canGoBack: canGoBack(afterFailing: entry)))
                return
            }
            guard current == generation else { return }
        }
        guard let beat, !beat.pages.isEmpty else { return }
        var location: StoryLocation
        switch entry.target {
        case .beatStart: location = StoryLocation(beatId: beat.id, pageId: beat.pages[0].id)
        case .location(let l): location = l
        }
        var pageIndex = beat.pageIndex(of: location.pageId)
        if pageIndex == nil {
            emit(.notice("page \(location.pageId) is no longer in beat \(beat.id); showing the beat's first page"))
            location = StoryLocation(beatId: beat.id, pageId: beat.pages[0].id)
            pageIndex = 0
        }
        let page = beat.pages[pageIndex!]
        let revealed: Int
        if case .text(let lines) = page.kind {
            if manifest.lineByLine {
                if location.lineIndex >= lines.count || location.lineIndex < 0 {
                    if resolvingInvalid { emit(.notice("the saved line is no longer on this page; showing its first line")) }
                    location.lineIndex = 0
                }
                revealed = location.lineIndex + 1
            } else {
                revealed = lines.count
                location.lineIndex = lines.count - 1
            }
        } else {
            revealed = 1
            location.lineIndex = 0
        }
        let preload = location
        Task { await content.readerMoved(to: preload) }
        if !skipAssets {
            let needsWait = await !content.criticalAssetsLoaded(for: location, in: beat)
            guard current == generation else { return }
            if needsWait {
                loadingSubjects = page.assetReferences(beatId: beat.id).map { $0.role.isSound ? .sound($0.path) : .image($0.path) }
                state = .loading(location)
                do {
                    try await content.loadCriticalAssets(for: location, in: beat)
                } catch {
                    guard current == generation else { return }
                    state = .failed(ReaderFailure(error: error, location: location, canSkip: true, canGoBack: canGoBack(afterFailing: entry)))
                    return
                }
                guard current == generation else { return }
            }
        }
        // Commit the move.
        pendingEntry = nil
        if entry.recordInHistory { history.push(location, beat: beat) } else { history.updateCurrent(location) }
        visit += 1
        failedSounds = []
        let isLastPage = pageIndex! == beat.pages.count - 1
        let pageState = PageState(beat: beat, page: page, location: location, pageIndex: pageIndex!, revealedLines: revealed,
                                  canGoBack: history.canGoBack, isEnding: isLastPage && beat.isEnding)
        pagesRead += 1
        state = .page(pageState)
        emit(.pageEntered(location))
        save(location)
        // A page_enter sound not loaded yet (an `important` one is not waited for) plays when it arrives,
        // if the reader is still on this visit.
        let enteredVisit = visit
        for path in page.pageEnterSounds where !(await play(path, cue: .pageEnter)) {
            loadThenPlay(path, cue: .pageEnter, visit: enteredVisit)
        }
        if let (path, index) = choiceSoundToLoad { loadThenPlay(path, cue: .choice(index), visit: enteredVisit) }
    }

    /// The most recent history entry (index and location) whose beat still exists, looking back at most
    /// `contentKeptFor` distinct beats; beats story.json no longer lists are skipped without I/O.
    private func nearestValidEntry(excluding missing: String) async -> (Int, StoryLocation)? {
        var tried: Set<String> = [missing]
        for (index, location) in history.locations.enumerated().reversed() where tried.insert(location.beatId).inserted {
            if tried.count > max(1, history.contentKeptFor) + 1 { break }
            if let listed = manifest.beats, !listed.contains(location.beatId) { continue }
            if (try? await content.loadBeat(location.beatId)) != nil { return (index, location) }
        }
        return nil
    }

    private func placeholderLocation(_ target: Target) -> StoryLocation {
        switch target {
        case .location(let l): l
        case .beatStart(let id): StoryLocation(beatId: id, pageId: "")
        }
    }

    // MARK: Sounds

    /// Plays a sound if it is loaded; reports whether it played.
    @discardableResult
    private func play(_ path: AssetPath, cue: SoundCue) async -> Bool {
        guard let sound else { return false }
        if let loaded = await content.cachedSound(path), sound.play(loaded) {
            emit(.soundPlayed(path, cue))
            return true
        }
        return false
    }

    private func playTapSounds(of page: PageState) {
        guard sound != nil else { return }
        let currentVisit = visit
        for path in page.page.tapSounds {
            Task { @MainActor in
                if await self.play(path, cue: .tap) { return }
                self.loadThenPlay(path, cue: .tap, visit: currentVisit)
            }
        }
    }

    /// Loads a sound, then plays it only if the reader is still on the same page visit. A sound that
    /// failed on this visit is skipped without asking again; a failure is remembered for the visit.
    private func loadThenPlay(_ path: AssetPath, cue: SoundCue, visit expected: Int) {
        guard let sound else { return }
        guard !(visit == expected && failedSounds.contains(path)) else {
            emit(.soundSkipped(path, cue))
            return
        }
        Task { @MainActor in
            do {
                let loaded = try await content.loadSound(path)
                guard self.visit == expected else {
                    self.emit(.soundSkipped(path, cue))
                    return
                }
                if sound.play(loaded) { self.emit(.soundPlayed(path, cue)) } else { self.emit(.soundSkipped(path, cue)) }
            } catch {
                if self.visit == expected { self.failedSounds.insert(path) }
                self.emit(.soundSkipped(path, cue))
            }
        }
    }

    // MARK: Progress

    /// Hands the progress to the writer (no disk work here); a problem of an earlier write becomes a notice.
    private func save(_ location: StoryLocation) {
        guard let progress else { return }
        let record = ReadingProgress(location: location, history: history.locations, finished: finishedOnce,
                                     storyVersion: manifest.version, pagesRead: pagesRead)
        if let problem = progress.save(storyId: manifest.id, record) { emit(.notice(problem)) }
    }

    /// Writes the progress handed over and not yet written (the story's end; tests).
    public func flushProgress() async {
        guard let progress else { return }
        if let problem = await progress.flush() { emit(.notice(problem)) }
    }

    /// Ends the session's writing: the newest progress is on disk and the writer has stopped. Called by the
    /// session's owner when the reader quits (a key or a quit signal).
    public func close() async {
        guard let progress else { return }
        if let problem = await progress.close() { emit(.notice(problem)) }
    }

    deinit {
        progress?.cancel()
    }
}
