import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaStorage

/// How many ending beats the story has: counted once per session, the first time an ending is reached,
/// from the beats story.json lists (a story that does not list them has no known total).
enum EndingsCount: Equatable {
    case unknown
    /// A task of the end screen's page visit is loading the listed beats.
    case counting
    /// The total, or nil when it cannot be known (no list in story.json, a listed beat unreadable).
    case counted(Int?)
}

/// What one reading of a story keeps: where the reader has been (the history), the pages seen, the
/// figures of the reading (pages read, choices made, endings found), and everything written of it
/// (progress, bookmarks and autosaves, the reader's settings), all through one write-behind writer.
///
/// Owned by the reading session (`ReaderViewModel`); `close()` puts the newest of it on disk.
@MainActor
final class ReadingRecord {
    private(set) var history: ReadingHistory
    /// Pages entered in this reading (since the story was started or restarted, across sessions).
    private(set) var pagesRead = 0
    /// Whether this reading reached an ending once.
    private(set) var finishedOnce = false
    /// Choices taken in this reading.
    private(set) var choicesMade = 0
    /// The ending beats found so far (kept across restarts).
    private(set) var endingsFound: [String] = []
    /// The pages seen of this story, across sessions and restarts (saved with the progress).
    private(set) var seenPages = SeenPages()
    /// How many endings the story has (counted by the end screen's visit).
    var endingsCount = EndingsCount.unknown

    let storyId: String
    /// The writer of everything below; nil when nothing is kept (`pajama play`, the bench).
    private let writer: RecordWriter?
    /// Whether progress is kept (a store was given).
    let keepsProgress: Bool
    /// Whether bookmarks are kept (a store was given): without one, no autosave is made before a choice.
    let keepsBookmarks: Bool
    private let hub: EventHub<NavigatorEvent>

    init(storyId: String, progress: ProgressStore?, bookmarks: BookmarkStore?, historyLimit: Int, contentKeptFor: Int,
         interval: Duration, settle: Duration, clock: any Clock<Duration>, hub: EventHub<NavigatorEvent>) {
        self.storyId = storyId
        self.hub = hub
        history = ReadingHistory(limit: historyLimit, contentKeptFor: contentKeptFor)
        keepsProgress = progress != nil
        keepsBookmarks = bookmarks != nil
        writer = RecordWriter(store: progress, bookmarks: bookmarks, interval: interval, settle: settle, clock: clock,
                              report: { hub.publish(.notice($0)) })
    }

    private func notice(_ text: String) { hub.publish(.notice(text)) }

    // MARK: Starting and restarting

    /// The saved progress (nil when none is kept or there is none); a warning about the file is told.
    func loadSaved() -> ReadingProgress? {
        guard keepsProgress, let store = writer?.store else { return nil }
        let (saved, warning) = store.load(storyId: storyId)
        if let warning { notice(warning) }
        // The endings found and the pages seen are kept whatever becomes of the rest (a restart, a requested start).
        endingsFound = saved?.endingsFound ?? []
        seenPages = SeenPages(saved?.seenPages)
        return saved
    }

    /// Goes on with the saved reading: its figures and the places before its last one.
    func resume(_ saved: ReadingProgress, history places: [StoryLocation]) {
        history.restore(places)
        pagesRead = saved.pagesRead
        finishedOnce = saved.finished
        choicesMade = saved.choicesMade ?? 0
    }

    /// Forgets the reading (a restart): history, figures and saved progress; endings found and pages
    /// seen stay.
    func forgetReading() {
        history.clear()
        if keepsProgress { writer?.remove(storyId: storyId) }
        pagesRead = 0
        finishedOnce = false
        choicesMade = 0
    }

    /// Forgets the saved progress only (`start(restart: true)`).
    func forgetSavedProgress() {
        if keepsProgress { writer?.remove(storyId: storyId) }
    }

    // MARK: The history

    func restoreHistory(_ places: [StoryLocation]) { history.restore(places) }
    func clearHistory() { history.clear() }
    func updateCurrent(_ location: StoryLocation) { history.updateCurrent(location) }
    func back() -> ReadingHistory.Entry? { history.back() }
    func back(to index: Int) -> ReadingHistory.Entry? { history.back(to: index) }
    func forgetContent(of beats: Set<String>?) { history.forgetContent(of: beats) }

    // MARK: A page entered

    /// A move committed at `location` in `beat`: recorded in the history (a new entry, or the current one
    /// moved), counted as a page read unless it shows the same page again, the choice that led here
    /// noted and counted, and the page remembered as seen. Returns the reading's standing on the page.
    func enter(_ location: StoryLocation, beat: Beat, newEntry: Bool, choice: TakenChoice?, reload: ReloadedPage?,
               beatsListed: Int?) -> ReadingStanding {
        if let choice { history.noteChoice(choice.text) }
        if newEntry { history.push(location, beat: beat) } else { history.updateCurrent(location) }
        if reload == nil { pagesRead += 1 }
        let firstSight = seenPages.insert(SeenPage(location))
        if choice != nil { choicesMade += 1 }
        return ReadingStanding(pagesRead: pagesRead, beatsSeen: seenPages.beatCount, beatsListed: beatsListed,
                               seenBefore: reload?.seenBefore ?? !firstSight)
    }

    /// An ending reached: remembered among the endings found.
    func reachEnding(_ beatId: String) {
        finishedOnce = true
        if !endingsFound.contains(beatId) { endingsFound.append(beatId) }
    }

    /// The end screen's figures as they stand.
    var endSummary: EndSummary {
        let total: Int? = if case .counted(let total) = endingsCount { total } else { nil }
        return EndSummary(pagesRead: pagesRead, choicesMade: choicesMade, endingsFound: endingsFound.count, endingsTotal: total)
    }

    // MARK: Writing

    /// Hands the progress at `location` to the writer (no disk work here); a problem of an earlier write
    /// becomes a notice. `origin` is the way back to a made beat (ink).
    func save(_ location: StoryLocation, storyVersion: String?, origin: BeatOrigin?) {
        guard keepsProgress, let writer else { return }
        let record = ReadingProgress(location: location, history: history.locations, finished: finishedOnce,
                                     storyVersion: storyVersion, pagesRead: pagesRead, choicesMade: choicesMade,
                                     endingsFound: endingsFound.isEmpty ? nil : endingsFound, seenPages: seenPages.pages,
                                     origin: origin)
        if let problem = writer.save(storyId: storyId, record) { notice(problem) }
    }

    /// Writes what was handed over and not yet written (the story's end; tests).
    func flush() async {
        guard let writer else { return }
        if let problem = await writer.flush() { notice(problem) }
    }

    /// A bookmark to write (said "bookmarked NAME", or its problem).
    func saveBookmark(_ bookmark: Bookmark) { writer?.saveBookmark(bookmark, storyId: storyId) }

    /// An autosave to write (before a choice); nothing when bookmarks are not kept.
    func autosave(_ bookmark: Bookmark) {
        guard keepsBookmarks else { return }
        writer?.autosave(bookmark, storyId: storyId)
    }

    /// The story's bookmarks, then its autosaves, read after every bookmark handed over before.
    func bookmarks() async -> [Bookmark] {
        guard let writer, !closed else { return [] }
        return await writer.bookmarks(storyId: storyId)
    }

    /// Settings to write behind the reader (the theme): `write` writes them and returns its problem.
    func saveSettings(to file: URL, _ write: @escaping @Sendable () -> String?) { writer?.saveSettings(to: file, write) }

    private var closed = false

    /// Everything handed over is on disk and the writer has stopped.
    func close() async {
        guard !closed else { return }
        closed = true
        if let writer, let problem = await writer.close() { notice(problem) }
    }

    /// The owner went away without closing: the writer stops without waiting.
    deinit { writer?.cancel() }
}
