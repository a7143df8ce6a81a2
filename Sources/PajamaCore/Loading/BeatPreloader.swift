/// Keeps the window of beats around the reader loaded, and their assets by criticality.
///
/// On every move the previous window's work is cancelled and a new one starts: the next beat first
/// (the forward move always beats general cache filling), then the rest of the window breadth-first,
/// at most `maximumConcurrentLoads` at once; then the window's assets, critical before important
/// before optional, nearest beats first (`AssetPreloadOrder`).
///
/// Cancelling stale work means: loads of the old window that have not started never start; a load
/// already running is cancelled too unless another caller still waits for it (`SharedLoad`). A move
/// within the same window (another page of the same beat) cancels nothing.
public actor BeatPreloader {
    public let window: PreloadWindow
    public let maximumConcurrentLoads: Int
    private let loadBeat: @Sendable (String) async throws(AssetLoadError) -> Beat
    private let preloadAssets: @Sendable ([Beat]) async -> Void
    private let events: LoadingEventHub?
    /// What a window's work depends on: the reader's beat and the beats behind it.
    private struct WindowKey: Equatable {
        var beatId: String
        var behind: [String]
    }

    private enum State {
        /// No window yet (or the last one was given up).
        case idle
        /// Preloading is off: moves start nothing.
        case disabled
        /// The window's work (it may have finished: the window is loaded and stays so until the reader
        /// leaves it).
        case running(WindowKey, Task<Void, Never>)
    }

    private var state: State
    /// Every window's work not yet ended (cancelled ones included), so `settle` can wait for all.
    private var unfinished: [Int: Task<Void, Never>] = [:]
    private var nextWorkId = 0
    public private(set) var lastWindow: [String] = []
    public let isEnabled: Bool

    /// `events` receives `.preloadWindowChanged` whenever a new window has been loaded.
    public init(window: PreloadWindow = PreloadWindow(), maximumConcurrentLoads: Int = 3, enabled: Bool = true,
                events: LoadingEventHub? = nil,
                loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat,
                preloadAssets: @escaping @Sendable ([Beat]) async -> Void) {
        self.window = window
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.isEnabled = enabled
        self.state = enabled ? .idle : .disabled
        self.events = events
        self.loadBeat = loadBeat
        self.preloadAssets = preloadAssets
    }

    /// Every change of state: leaving `.running` cancels its work.
    private func transition(to next: State) {
        if case .running(_, let work) = state { work.cancel() }
        state = next
    }

    /// Slides the window to `beatId`, with `recent` the beats read just before (most recent last).
    /// A move within the same window (another page or line of the same beat) keeps the work going:
    /// restarting it would cancel a fetch of the next beat that is already under way.
    public func readerMoved(to beatId: String, recent: [String]) {
        let behind = Array(recent.filter { $0 != beatId }.suffix(window.behind).reversed())
        let key = WindowKey(beatId: beatId, behind: behind)
        switch state {
        case .disabled: return
        case .running(let current, _) where current == key: return
        case .idle, .running: transition(to: .running(key, start(key)))
        }
    }

    /// Starts the work of the window `key` (tracked in `unfinished` until it ends).
    private func start(_ key: WindowKey) -> Task<Void, Never> {
        let loadBeat = self.loadBeat, preloadAssets = self.preloadAssets, window = self.window
        let limit = maximumConcurrentLoads
        let workId = nextWorkId
        nextWorkId += 1
        let record: @Sendable ([String]) async -> Void = { [weak self] ids in await self?.record(ids) }
        let ended: @Sendable () async -> Void = { [weak self] in await self?.ended(workId) }
        let task = Task {
            await Self.walk(from: key.beatId, behind: key.behind, window: window, limit: limit, loadBeat: loadBeat,
                            preloadAssets: preloadAssets, record: record)
            await ended()
        }
        unfinished[workId] = task
        return task
    }

    private func ended(_ workId: Int) { unfinished[workId] = nil }

    /// One window's work: the current beat, then the window ahead level by level, then behind, then assets.
    private static func walk(
        from beatId: String, behind: [String], window: PreloadWindow, limit: Int,
        loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat,
        preloadAssets: @Sendable ([Beat]) async -> Void, record: @Sendable ([String]) async -> Void
    ) async {
        var known: [String: Beat] = [:]
        guard let current = try? await loadBeat(beatId) else { return }
        known[beatId] = current
        // Walk forward level by level, loading each level with bounded concurrency.
        var order: [String] = []
        var levelStart = [beatId]
        var seen: Set<String> = [beatId]
        for _ in 0..<window.ahead {
            var level: [String] = []
            for id in levelStart {
                for successor in known[id]?.successorBeatIds ?? [] where seen.insert(successor).inserted { level.append(successor) }
            }
            if level.isEmpty || Task.isCancelled { break }
            order += level
            let loaded = await Self.loadAll(level, limit: limit, loadBeat)
            for beat in loaded { known[beat.id] = beat }
            levelStart = level
        }
        if Task.isCancelled { return }
        let back = await Self.loadAll(behind, limit: limit, loadBeat)
        for beat in back { known[beat.id] = beat }
        let loadedWindow = ([beatId] + order + behind).filter { known[$0] != nil }
        if Task.isCancelled { return }
        await record(loadedWindow)
        if Task.isCancelled { return }
        await preloadAssets(loadedWindow.compactMap { known[$0] })
    }

    private func record(_ ids: [String]) {
        guard ids != lastWindow else { return }
        lastWindow = ids
        events?.publish(.preloadWindowChanged(ids))
    }

    /// Waits until every window's work has ended, cancelled windows included (tests and the bench).
    public func settle() async {
        while let (_, task) = unfinished.first {
            await task.value
            unfinished = unfinished.filter { $0.value != task }
        }
    }

    private static func loadAll(_ ids: [String], limit: Int, _ loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat) async -> [Beat] {
        await withTaskGroup(of: Beat?.self) { group in
            var results: [Beat] = []
            var iterator = ids.makeIterator()
            var running = 0
            while running < limit, let id = iterator.next() {
                group.addTask { try? await loadBeat(id) }
                running += 1
            }
            while let result = await group.next() {
                if let result { results.append(result) }
                if Task.isCancelled { group.cancelAll(); break }
                if let id = iterator.next() { group.addTask { try? await loadBeat(id) } }
            }
            return results
        }
    }
}
