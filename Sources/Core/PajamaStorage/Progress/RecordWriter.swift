import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaModel

/// Writes a reading's record behind the reader, so a key never waits on the disk: progress, bookmarks
/// and autosaves, and settings (the theme). One writer per reading session (`ReadingRecord`), one actor:
/// every file is written on it, one at a time, in the order the reader handed the changes over.
///
/// Each call only hands the change over (under a lock, no I/O) and returns. Two cadences:
/// - **Behind** (progress, settings): coalesced per story or file (the newest wins) and written at most
///   once per `interval`: the first change after a quiet spell is written once the reader has been still
///   for `settle` (so the write, a file and two `fsync`s on a pool thread, runs after the frame of the key
///   that made the change, not beside it on a busy machine), the ones that follow within `interval` are
///   written together when it has passed and the reader is still again. A reader that never stops for
///   `settle` still gets a write every two `interval`s at most.
/// - **At once** (a bookmark, an autosave: the reader asked for it): written in order as soon as the actor
///   is free, its outcome told through `report` ("bookmarked NAME", or the problem). `bookmarks(storyId:)`
///   reads the file after every bookmark handed over before it.
///
/// `flush()` writes whatever is pending now (the story's end, before quitting); `close()` flushes and
/// stops the writer. Every file is written atomically (temp file, fsync, rename, fsync of the folder), so
/// the file on disk is always the old or the new one, whenever the process stops.
public actor RecordWriter {
    /// How often, at most, the writer touches the disk for progress and settings.
    public static let defaultInterval: Duration = .milliseconds(250)
    /// How long the reader must have made no change before a write behind starts.
    public static let defaultSettle: Duration = .milliseconds(20)

    /// Where progress is read from and written to.
    public nonisolated let store: ProgressStore?
    /// Where bookmarks and autosaves are kept (nil: nowhere; a bookmark is dropped, the list is empty).
    public nonisolated let bookmarkStore: BookmarkStore?
    private let interval: Duration
    private let settle: Duration
    private let clock: any Clock<Duration>
    private nonisolated let report: @Sendable (String) -> Void
    private nonisolated let inbox = Inbox()
    /// Wake the loops; each holds at most one wake, so a burst of changes wakes its loop once.
    private nonisolated let behindWakes: AsyncStream<Void>.Continuation
    private nonisolated let atOnceWakes: AsyncStream<Void>.Continuation
    /// Files written or removed so far for progress and settings (what tests count).
    public private(set) var writes = 0

    /// `report` tells what a write at once came to, and the problem of a settings write (progress
    /// problems are returned by the next `save`).
    public init(store: ProgressStore?, bookmarks: BookmarkStore? = nil, interval: Duration = RecordWriter.defaultInterval,
                settle: Duration = RecordWriter.defaultSettle, clock: any Clock<Duration> = ContinuousClock(),
                report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        bookmarkStore = bookmarks
        self.interval = interval
        self.settle = settle
        self.clock = clock
        self.report = report
        let (behind, behindWakes) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (atOnce, atOnceWakes) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.behindWakes = behindWakes
        self.atOnceWakes = atOnceWakes
        inbox.start([Task { await self.runBehind(behind) }, Task { await self.runAtOnce(atOnce) }])
    }

    // MARK: Handing over

    /// Hands over the newest progress of `storyId`; returns the problem of an earlier write that failed
    /// since the last call (nil when there was none), for the reader to show.
    public nonisolated func save(storyId: String, _ progress: ReadingProgress) -> String? {
        let problem = inbox.put(.progress(storyId), .save(progress))
        behindWakes.yield()
        return problem
    }

    /// Forgets a story's progress, in order with its saves (a save handed over before is never written after).
    public nonisolated func remove(storyId: String) {
        _ = inbox.put(.progress(storyId), .remove)
        behindWakes.yield()
    }

    /// Hands over the newest settings for `file`: `write` writes them (returning its problem, reported).
    public nonisolated func saveSettings(to file: URL, _ write: @escaping @Sendable () -> String?) {
        _ = inbox.put(.settings(file.path), .settings(write))
        behindWakes.yield()
    }

    /// A bookmark to write at once; reported as "bookmarked NAME" (or its problem).
    public nonisolated func saveBookmark(_ bookmark: Bookmark, storyId: String) {
        inbox.putAtOnce(.bookmark(bookmark, storyId: storyId))
        atOnceWakes.yield()
    }

    /// An autosave to write at once; only a problem is reported.
    public nonisolated func autosave(_ bookmark: Bookmark, storyId: String) {
        inbox.putAtOnce(.autosave(bookmark, storyId: storyId))
        atOnceWakes.yield()
    }

    // MARK: Reading and flushing

    /// The story's bookmarks, then its autosaves (oldest first), read after every bookmark handed over
    /// before (a bookmark just saved is there); a broken file is moved aside and reported.
    public func bookmarks(storyId: String) -> [Bookmark] {
        writeAtOnce()
        guard let bookmarkStore else { return [] }
        let (file, warning) = bookmarkStore.load(storyId: storyId)
        if let warning { report(warning) }
        return file.bookmarks + file.autosaves
    }

    /// Writes every pending change now; returns the problem of a progress write that failed since the last report.
    @discardableResult
    public func flush() -> String? {
        writeAtOnce()
        writeBehind()
        return inbox.takeProblem()
    }

    /// Flushes and stops the writer (its tasks end); later changes are written by `flush()` only.
    @discardableResult
    public func close() async -> String? {
        behindWakes.finish()
        atOnceWakes.finish()
        for task in inbox.takeTasks() {
            task.cancel()
            await task.value
        }
        return flush()
    }

    /// Stops the writer without waiting (the owner went away without closing it); pending changes are
    /// still written by the writer's tasks on their way out.
    public nonisolated func cancel() {
        behindWakes.finish()
        atOnceWakes.finish()
        for task in inbox.takeTasks() { task.cancel() }
    }

    // MARK: The loops

    private func runBehind(_ wakes: AsyncStream<Void>) async {
        for await _ in wakes {
            await waitUntilStill()
            writeBehind()
            // Cancelled: `close()` writes whatever came in meanwhile.
            try? await clock.sleep(for: interval)
        }
        writeBehind()
    }

    private func runAtOnce(_ wakes: AsyncStream<Void>) async {
        for await _ in wakes { writeAtOnce() }
        writeAtOnce()
    }

    /// Returns once no change has come for `settle` (or after `interval` of changes coming faster than that),
    /// or at once when the writer is stopped (`close()` writes what is pending).
    private func waitUntilStill() async {
        guard settle > .zero else { return }
        var waited = Duration.zero
        repeat {
            let seen = inbox.changeCount
            do { try await clock.sleep(for: settle) } catch { return }
            waited += settle
            if inbox.changeCount == seen { return }
        } while waited < interval
    }

    /// Takes the pending changes behind and writes them; runs on this actor, never interleaved with another write.
    private func writeBehind() {
        for (key, change) in inbox.take() {
            switch (key, change) {
            case (.progress(let storyId), .save(let progress)):
                if let problem = store?.save(storyId: storyId, progress) {
                    PajamaLog.progress.error("\(problem)", metadata: ["story": "\(storyId)"])
                    inbox.note(problem)
                }
            case (.progress(let storyId), .remove):
                if let problem = store?.remove(storyId: storyId) { inbox.note(problem) }
            case (_, .settings(let write)):
                if let problem = write() { report(problem) }
            case (.settings, _):
                continue
            }
            writes += 1
        }
    }

    /// Writes the bookmarks handed over, in order.
    private func writeAtOnce() {
        for write in inbox.takeAtOnce() {
            guard let bookmarkStore else { continue }
            switch write {
            case .bookmark(let bookmark, let storyId):
                report(bookmarkStore.save(bookmark, storyId: storyId) ?? "bookmarked \"\(bookmark.name)\"")
            case .autosave(let bookmark, let storyId):
                if let problem = bookmarkStore.autosave(bookmark, storyId: storyId) { report(problem) }
            }
        }
    }
}

extension RecordWriter {
    fileprivate enum Key: Hashable, Sendable {
        case progress(String)
        case settings(String)
    }

    fileprivate enum Change: Sendable {
        case save(ReadingProgress)
        case remove
        case settings(@Sendable () -> String?)
    }

    fileprivate enum AtOnce: Sendable {
        case bookmark(Bookmark, storyId: String)
        case autosave(Bookmark, storyId: String)
    }

    /// The changes handed over and not yet written, the last progress problem and the writer's tasks.
    fileprivate final class Inbox: Sendable {
        private struct State {
            var changes: [(key: Key, change: Change)] = []
            var atOnce: [AtOnce] = []
            /// Changes behind handed over so far (the writer waits until it stops moving: `waitUntilStill`).
            var changesHandedOver = 0
            var problem: String?
            var tasks: [Task<Void, Never>] = []
        }

        private let state = Locked(State())

        /// Replaces the key's pending change; returns (and forgets) the last progress problem.
        func put(_ key: Key, _ change: Change) -> String? {
            state.withLock { state in
                state.changes.removeAll { $0.key == key }
                state.changes.append((key, change))
                state.changesHandedOver += 1
                defer { state.problem = nil }
                return state.problem
            }
        }

        func putAtOnce(_ write: AtOnce) { state.withLock { $0.atOnce.append(write) } }

        func take() -> [(key: Key, change: Change)] {
            state.withLock { state in
                defer { state.changes = [] }
                return state.changes
            }
        }

        func takeAtOnce() -> [AtOnce] {
            state.withLock { state in
                defer { state.atOnce = [] }
                return state.atOnce
            }
        }

        var changeCount: Int { state.withLock { $0.changesHandedOver } }

        func note(_ text: String) { state.withLock { $0.problem = text } }

        func takeProblem() -> String? {
            state.withLock { state in
                defer { state.problem = nil }
                return state.problem
            }
        }

        func start(_ tasks: [Task<Void, Never>]) { state.withLock { $0.tasks = tasks } }

        func takeTasks() -> [Task<Void, Never>] {
            state.withLock { state in
                defer { state.tasks = [] }
                return state.tasks
            }
        }
    }
}
