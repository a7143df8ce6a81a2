import Foundation
import Logging

/// Writes reading progress behind the reader, so a key never waits on the disk.
///
/// `save` and `remove` only hand the change over (under a lock, no I/O) and return; changes are
/// coalesced per story (the newest wins) and written by this actor, off the main actor, at most once
/// per `interval`: the first change after a quiet spell is written once the reader has been still for
/// `settle` (so the write, a file and two `fsync`s on a pool thread, runs after the frame of the key that
/// made the change, not beside it on a busy machine), the ones that follow within `interval` are written
/// together when it has passed and the reader is still again. A reader that never stops for `settle`
/// still gets a write every two `interval`s at most. `flush()` writes whatever is pending now (the
/// story's end, before quitting); `close()` flushes and stops the writer. Every write is
/// `ProgressStore.save` (temp file, fsync, rename, fsync of the folder), so the file on disk is always
/// the old or the new one, whenever the process stops.
///
/// Owned by one reading session (`ReaderViewModel`), which closes it when the session ends.
public actor ProgressWriter {
    /// How often, at most, the writer touches the disk.
    public static let defaultInterval: Duration = .milliseconds(250)
    /// How long the reader must have made no change before a write starts.
    public static let defaultSettle: Duration = .milliseconds(20)

    /// Where progress is read from and written to.
    public nonisolated let store: ProgressStore
    private let interval: Duration
    private let settle: Duration
    private let clock: any Clock<Duration>
    private nonisolated let inbox = Inbox()
    /// Wakes the writer; holds at most one wake, so a burst of changes wakes it once.
    private nonisolated let wakes: AsyncStream<Void>.Continuation
    /// Files written or removed so far (what tests count).
    public private(set) var writes = 0

    public init(store: ProgressStore, interval: Duration = ProgressWriter.defaultInterval, settle: Duration = ProgressWriter.defaultSettle,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.store = store
        self.interval = interval
        self.settle = settle
        self.clock = clock
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakes = continuation
        inbox.start(Task { await self.run(stream) })
    }

    /// Hands over the newest progress of `storyId`; returns the problem of an earlier write that failed
    /// since the last call (nil when there was none), for the reader to show.
    public nonisolated func save(storyId: String, _ progress: ReadingProgress) -> String? {
        let problem = inbox.put(storyId, .save(progress))
        wakes.yield()
        return problem
    }

    /// Forgets a story's progress, in order with its saves (a save handed over before is never written after).
    public nonisolated func remove(storyId: String) {
        _ = inbox.put(storyId, .remove)
        wakes.yield()
    }

    /// Writes every pending change now; returns the problem of a write that failed since the last report.
    @discardableResult
    public func flush() -> String? {
        writePending()
        return inbox.takeProblem()
    }

    /// Flushes and stops the writer (its task ends); later changes are written by `flush()` only.
    @discardableResult
    public func close() async -> String? {
        wakes.finish()
        if let task = inbox.takeTask() {
            task.cancel()
            await task.value
        }
        return flush()
    }

    /// Stops the writer without waiting (the owner went away without closing it); pending changes are
    /// still written by the writer's task on its way out.
    public nonisolated func cancel() {
        wakes.finish()
        inbox.takeTask()?.cancel()
    }

    private func run(_ wakes: AsyncStream<Void>) async {
        for await _ in wakes {
            await waitUntilStill()
            writePending()
            // Cancelled: `close()` writes whatever came in meanwhile.
            try? await clock.sleep(for: interval)
        }
        writePending()
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

    /// Takes the pending changes and writes them; runs on this actor, never interleaved with another write.
    private func writePending() {
        for (storyId, change) in inbox.take() {
            switch change {
            case .save(let progress):
                if let problem = store.save(storyId: storyId, progress) {
                    PajamaLog.progress.error("\(problem)", metadata: ["story": "\(storyId)"])
                    inbox.report(problem)
                }
            case .remove:
                if let problem = store.remove(storyId: storyId) { inbox.report(problem) }
            }
            writes += 1
        }
    }
}

extension ProgressWriter {
    fileprivate enum Change: Sendable {
        case save(ReadingProgress)
        case remove
    }

    /// The changes handed over and not yet written, the last write problem and the writer's task.
    fileprivate final class Inbox: @unchecked Sendable {
        // Safe: every mutable field is only touched with `lock` held.
        private let lock = NSLock()
        private var changes: [(storyId: String, change: Change)] = []
        /// Changes handed over so far (the writer waits until it stops moving: `waitUntilStill`).
        private var changesHandedOver = 0
        private var problem: String?
        private var task: Task<Void, Never>?

        /// Replaces the story's pending change; returns (and forgets) the last write problem.
        func put(_ storyId: String, _ change: Change) -> String? {
            lock.withLock {
                changes.removeAll { $0.storyId == storyId }
                changes.append((storyId, change))
                changesHandedOver += 1
                defer { problem = nil }
                return problem
            }
        }

        func take() -> [(storyId: String, change: Change)] {
            lock.withLock {
                defer { changes = [] }
                return changes
            }
        }

        var changeCount: Int { lock.withLock { changesHandedOver } }

        func report(_ text: String) { lock.withLock { problem = text } }

        func takeProblem() -> String? {
            lock.withLock {
                defer { problem = nil }
                return problem
            }
        }

        func start(_ task: Task<Void, Never>) { lock.withLock { self.task = task } }

        func takeTask() -> Task<Void, Never>? {
            lock.withLock {
                defer { task = nil }
                return task
            }
        }
    }
}
