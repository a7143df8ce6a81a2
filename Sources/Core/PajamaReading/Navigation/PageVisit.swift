import PajamaModel

/// One stay on a page, from the move that shows it until a move shows another page (or the reader
/// closes). It owns the tasks started for the page (a tap, page-enter or choice sound loading to play):
/// `end()` cancels them, so nothing started for a page outlives the stay.
@MainActor
final class PageVisit {
    private enum State {
        /// The reader is on the page (or on a move from it not yet committed); the tasks under way.
        case open([Int: Task<Void, Never>])
        case ended
    }

    private var state: State = .open([:])
    private var nextTask = 0
    /// Sounds that failed to load during this visit: not asked for again until the page is entered again
    /// (a refusing server was asked once per tap).
    var failedSounds: Set<AssetPath> = []

    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// The number of tasks still running (tests).
    var runningTasks: Int {
        if case .open(let tasks) = state { return tasks.count }
        return 0
    }

    /// Runs `work` as a task of this visit; returns false (and runs nothing) once the visit has ended.
    @discardableResult
    func run(_ work: @escaping @MainActor () async -> Void) -> Bool {
        guard case .open(var tasks) = state else { return false }
        let id = nextTask
        nextTask += 1
        tasks[id] = Task { @MainActor [weak self] in
            await work()
            self?.finished(id)
        }
        state = .open(tasks)
        return true
    }

    private func finished(_ id: Int) {
        guard case .open(var tasks) = state else { return }
        tasks[id] = nil
        state = .open(tasks)
    }

    /// Ends the visit: every task still running is cancelled and no new one starts.
    func end() {
        guard case .open(let tasks) = state else { return }
        state = .ended
        for task in tasks.values { task.cancel() }
    }
}
