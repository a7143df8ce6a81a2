/// Keeps the beats its `PreloadPolicy` wants around the reader loaded, and then their assets by
/// criticality.
///
/// On every move to another beat it plans again (the policy's wanted beats, in need order), cancels
/// the loads of beats no longer wanted, keeps the ones still wanted running (a load under way is never
/// cancelled only to be sent again) and starts the missing ones in need order, at most
/// `maximumConcurrentLoads` at once, planning again as each beat arrives (a beat's successors are known
/// only once it is loaded). Once every wanted beat is in, the window's assets follow, critical before
/// important before optional, nearest beats first (`AssetPreloadOrder`). A move within the same window
/// (another page of the same beat) changes nothing.
///
/// A cancelled load stops unless another caller, the reader say, still waits for it (`SharedLoad`).
public actor BeatPreloader {
    public let policy: PreloadPolicy
    public let maximumConcurrentLoads: Int
    private let loadBeat: @Sendable (String) async throws(AssetLoadError) -> Beat
    private let preloadAssets: @Sendable ([Beat]) async -> Void
    private let events: LoadingEventHub?
    /// What a window's work depends on: the reader's beat and the beats behind it (most recent first).
    private struct WindowKey: Equatable {
        var beatId: String
        var behind: [String]
    }

    private enum State {
        /// No window yet.
        case idle
        /// Preloading is off: moves start nothing.
        case disabled
        /// The window's work: planning and starting loads until every wanted beat is in, then its assets
        /// (it may have finished: the window stays loaded until the reader leaves it).
        case running(WindowKey, Task<Void, Never>)
    }

    private var state: State
    /// One beat load under way; `number` tells a load from a later one of the same beat.
    private struct BeatLoad {
        var number: Int
        var task: Task<Void, Never>
    }

    /// The beat loads under way, by beat id: they outlive the window that started them while the next
    /// window still wants them.
    private var loads: [String: BeatLoad] = [:]
    /// Beats loaded for the recent windows (what the policy plans over), cut down to the wanted ones at
    /// every move.
    private var known: [String: Beat] = [:]
    /// Beats whose load ended (loaded or failed) since the window began: the window does not ask again.
    private var settledInWindow: Set<String> = []
    /// The running window's work waiting for a load to end.
    private var waiting: CheckedContinuation<Void, Never>?
    /// Every task not yet ended (windows' work and beat loads, cancelled ones included), so `settle`
    /// can wait for all.
    private var unfinished: [Int: Task<Void, Never>] = [:]
    private var nextNumber = 0
    public private(set) var lastWindow: [String] = []
    public let isEnabled: Bool

    /// `events` receives `.preloadWindowChanged` whenever a new window has been loaded.
    public init(policy: PreloadPolicy = .standard, maximumConcurrentLoads: Int = 3, enabled: Bool = true,
                events: LoadingEventHub? = nil,
                loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat,
                preloadAssets: @escaping @Sendable ([Beat]) async -> Void) {
        self.policy = policy
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.isEnabled = enabled
        self.state = enabled ? .idle : .disabled
        self.events = events
        self.loadBeat = loadBeat
        self.preloadAssets = preloadAssets
    }

    /// Every change of state: leaving `.running` cancels its work (and wakes it if it waits for a load).
    private func transition(to next: State) {
        if case .running(_, let work) = state {
            work.cancel()
            wake()
        }
        state = next
    }

    /// Moves the window to `beatId`, with `recent` the beats read just before (most recent last).
    /// A move within the same window (another page or line of the same beat) keeps the work going.
    public func readerMoved(to beatId: String, recent: [String]) {
        let behind = Array(recent.filter { $0 != beatId }.suffix(policy.behind).reversed())
        let key = WindowKey(beatId: beatId, behind: behind)
        switch state {
        case .disabled: return
        case .running(let current, _) where current == key: return
        case .idle, .running:
            let wanted = Set(plan(key))
            for (id, load) in loads where !wanted.contains(id) {
                load.task.cancel()
                loads[id] = nil
            }
            known = known.filter { wanted.contains($0.key) }
            settledInWindow = []
            transition(to: .running(key, start(key)))
        }
    }

    private func plan(_ key: WindowKey) -> [String] {
        policy.plan(from: key.beatId, behind: key.behind) { known[$0] }
    }

    /// Starts the work of the window `key` (tracked in `unfinished` until it ends).
    private func start(_ key: WindowKey) -> Task<Void, Never> {
        let number = take()
        let task = Task { [weak self] in
            await self?.work(key)
            await self?.ended(number)
        }
        unfinished[number] = task
        return task
    }

    /// One window's work: load the wanted beats (planning again as each arrives), then their assets.
    private func work(_ key: WindowKey) async {
        var wanted = plan(key)
        while !Task.isCancelled {
            let missing = wanted.filter { !settledInWindow.contains($0) }
            if missing.isEmpty { break }
            for id in missing where loads[id] == nil && loads.count < maximumConcurrentLoads { startLoad(id) }
            await waitForALoad()
            wanted = plan(key)
        }
        if Task.isCancelled { return }
        let window = wanted.filter { known[$0] != nil }
        record(window)
        let beats = window.compactMap { known[$0] }
        await preloadAssets(beats)
    }

    private func startLoad(_ id: String) {
        let number = take()
        let loadBeat = self.loadBeat
        let task = Task { [weak self] in
            let beat = try? await loadBeat(id)
            await self?.loadEnded(id, number: number, beat: beat)
        }
        loads[id] = BeatLoad(number: number, task: task)
        unfinished[number] = task
    }

    private func loadEnded(_ id: String, number: Int, beat: Beat?) {
        unfinished[number] = nil
        guard loads[id]?.number == number else { return }  // cancelled: no longer wanted
        loads[id] = nil
        if let beat { known[id] = beat }
        settledInWindow.insert(id)
        wake()
    }

    private func waitForALoad() async {
        guard !Task.isCancelled else { return }
        await withCheckedContinuation { waiting = $0 }
    }

    private func wake() {
        waiting?.resume()
        waiting = nil
    }

    private func take() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    private func ended(_ number: Int) { unfinished[number] = nil }

    private func record(_ ids: [String]) {
        guard ids != lastWindow else { return }
        lastWindow = ids
        events?.publish(.preloadWindowChanged(ids))
    }

    /// The beat loads under way (tests).
    public var loading: Set<String> { Set(loads.keys) }

    /// Waits until every window's work and every beat load has ended, cancelled ones included (tests
    /// and the bench).
    public func settle() async {
        while let (number, task) = unfinished.first {
            await task.value
            if unfinished[number] == task { unfinished[number] = nil }
        }
    }
}
