import PajamaModel

/// Keeps the beats its `PreloadPolicy` wants around the reader loaded, and their pictures and sounds.
///
/// On every move to another beat it plans again (the policy's wanted beats in need order, and their
/// assets: critical before important before optional, nearest beats first, `AssetPreloadOrder`), cancels
/// the loads of what is no longer wanted, keeps the loads of what is still wanted running (a load under
/// way is never cancelled only to be sent again) and starts the missing ones in need order: at most
/// `maximumConcurrentLoads` beats and `maximumConcurrentAssetLoads` assets at once, side by side (an
/// asset of a beat already in never waits for a farther beat). It plans again as each load ends (a
/// beat's successors and assets are known only once it is loaded). A move within the same window
/// (another page of the same beat) changes nothing.
///
/// Assets back to back: an asset load whose transfer is due to end within its own round trip
/// (`TransferForecast`, from the load's progress: its `Content-Length`, the bytes and the rate seen)
/// no longer counts against `maximumConcurrentAssetLoads`, so the next asset's request goes out one round
/// trip before the link would fall idle (at most as many such ending loads as the limit). With a limit
/// of 1 the transfers follow each other instead of sharing the link; measured, that loses more to the
/// round trips of small files than it gains (docs/performance.md), so the app keeps 2.
///
/// It measures the link and the reader as it goes (`LinkMeasure`: its transfers' round trips and rates,
/// the time between moves); a policy that looks ahead `byTime` is widened to what those figures ask.
///
/// A cancelled load stops unless another caller, the reader say, still waits for it (`SharedLoad`).
public actor BeatPreloader {
    public let policy: PreloadPolicy
    public let maximumConcurrentLoads: Int
    public let maximumConcurrentAssetLoads: Int
    private let loadBeat: @Sendable (String) async throws(AssetLoadError) -> Beat
    private let assetOrder: @Sendable ([Beat]) -> [AssetReference]
    private let loadAsset: @Sendable (AssetReference, @escaping @Sendable (TransferProgress) -> Void) async -> Void
    private let now: @Sendable () -> ContinuousClock.Instant
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
        /// The window's work: planning and starting loads until every wanted beat and asset is in (it
        /// may have finished: the window stays loaded until the reader leaves it).
        case running(WindowKey, Task<Void, Never>)
        /// Stopped for good by its owner (`stop()`, the story closed): moves and changes start nothing.
        case stopped
    }

    private var state: State
    /// What one load fetches.
    private enum Item: Hashable {
        case beat(String)
        case asset(AssetPath, sound: Bool)

        init(_ reference: AssetReference) { self = .asset(reference.path, sound: reference.role.isSound) }

        var isBeat: Bool { if case .beat = self { true } else { false } }
    }

    /// One load under way; `number` tells a load from a later one of the same item. `ending`: an asset
    /// whose transfer is due to end within its round trip (it no longer holds a place on the link).
    private struct Load {
        var number: Int
        var task: Task<Void, Never>
        var ending = false
    }

    /// The loads under way: they outlive the window that started them while the next one still wants them.
    private var loads: [Item: Load] = [:]
    /// Beats loaded for the recent windows (what the policy plans over), cut down to the wanted ones at
    /// every move.
    private var known: [String: Beat] = [:]
    /// Items whose load ended (loaded or failed) since the window began: the window does not ask again.
    private var settledInWindow: Set<Item> = []
    /// The running window's work waiting for a load to end.
    private var waiting: CheckedContinuation<Void, Never>?
    /// Every task not yet ended (windows' work and loads, cancelled ones included), so `settle` can wait for all.
    private var unfinished: [Int: Task<Void, Never>] = [:]
    private var nextNumber = 0
    public private(set) var lastWindow: [String] = []
    /// The link and the reader's pace as seen so far (for a policy that looks ahead `byTime`).
    public private(set) var measure = LinkMeasure()
    public let isEnabled: Bool

    /// `events` receives `.preloadWindowChanged` whenever a new window's beats are loaded. `assetOrder`
    /// gives the assets of the wanted beats in the order to fetch them, `loadAsset` fetches one, handing
    /// its progress callback the bytes as they arrive. `now` is the clock the transfers are timed with (tests).
    public init(policy: PreloadPolicy = .standard, maximumConcurrentLoads: Int = 3, maximumConcurrentAssetLoads: Int = 2,
                enabled: Bool = true, events: LoadingEventHub? = nil,
                loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat,
                assetOrder: @escaping @Sendable ([Beat]) -> [AssetReference] = { _ in [] },
                loadAsset: @escaping @Sendable (AssetReference, @escaping @Sendable (TransferProgress) -> Void) async -> Void = { _, _ in },
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.policy = policy
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.maximumConcurrentAssetLoads = max(1, maximumConcurrentAssetLoads)
        self.isEnabled = enabled
        self.state = enabled ? .idle : .disabled
        self.events = events
        self.loadBeat = loadBeat
        self.assetOrder = assetOrder
        self.loadAsset = loadAsset
        self.now = now
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
        measure.turned(at: now())
        let behind = Array(recent.filter { $0 != beatId }.suffix(policy.behind).reversed())
        let key = WindowKey(beatId: beatId, behind: behind)
        switch state {
        case .disabled, .stopped: return
        case .running(let current, _) where current == key: return
        case .idle, .running:
            let beats = plan(key)
            let wanted = Set(beats.map(Item.beat) + assets(of: beats).map(Item.init))
            for (item, load) in loads where !wanted.contains(item) {
                load.task.cancel()
                loads[item] = nil
            }
            known = known.filter { wanted.contains(.beat($0.key)) }
            settledInWindow = []
            transition(to: .running(key, start(key)))
        }
    }

    /// Stops for good (the reading is over): the window's work and every load under way are cancelled, so
    /// no request is sent or waited for on the reader's behalf afterwards; later moves start nothing.
    /// Returns at once (`settle()` waits for the cancelled tasks to end).
    public func stop() {
        for load in loads.values { load.task.cancel() }
        loads = [:]
        transition(to: .stopped)
    }

    /// The story's files changed: the beats `beats` and assets `assets` (nil: all of them) are planned and
    /// loaded again, the window's work starting over.
    public func storyChanged(beats: Set<String>?, assets: Set<AssetPath>?) {
        func changed(_ item: Item) -> Bool {
            switch item {
            case .beat(let id): beats?.contains(id) ?? true
            case .asset(let path, _): assets?.contains(path) ?? true
            }
        }
        for (item, load) in loads where changed(item) {
            load.task.cancel()
            loads[item] = nil
        }
        known = known.filter { !changed(.beat($0.key)) }
        settledInWindow = settledInWindow.filter { !changed($0) }
        if case .running(let key, _) = state { transition(to: .running(key, start(key))) }
    }

    private func plan(_ key: WindowKey) -> [String] {
        policy.widened(to: measure.everyBeatWithin).plan(from: key.beatId, behind: key.behind) { known[$0] }
    }

    /// The assets of the wanted beats already loaded, in the order to fetch them.
    private func assets(of beats: [String]) -> [AssetReference] {
        assetOrder(beats.compactMap { known[$0] })
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

    /// One window's work: the wanted beats and their assets, planning again as each load ends.
    private func work(_ key: WindowKey) async {
        var recorded = false
        while !Task.isCancelled {
            let beats = plan(key)
            let missingBeats = beats.filter { !settledInWindow.contains(.beat($0)) }
            if missingBeats.isEmpty, !recorded {
                record(beats.filter { known[$0] != nil })
                recorded = true
            }
            let missingAssets = assets(of: beats).filter { !settledInWindow.contains(Item($0)) }
            if missingBeats.isEmpty, missingAssets.isEmpty { return }
            var running = loads.keys.filter(\.isBeat).count
            for id in missingBeats where loads[.beat(id)] == nil && running < maximumConcurrentLoads {
                startBeatLoad(id)
                running += 1
            }
            let assetLoads = loads.filter { !$0.key.isBeat }
            running = assetLoads.values.filter { !$0.ending }.count
            var all = assetLoads.count
            for reference in missingAssets
            where loads[Item(reference)] == nil && running < maximumConcurrentAssetLoads && all < 2 * maximumConcurrentAssetLoads {
                startAssetLoad(reference)
                running += 1
                all += 1
            }
            await waitForALoad()
        }
    }

    private func startBeatLoad(_ id: String) {
        let loadBeat = self.loadBeat
        startLoad(.beat(id)) { number in
            let beat = try? await loadBeat(id)
            await self.loadEnded(.beat(id), number: number, beat: beat)
        }
    }

    /// Starts an asset's load, and beside it, in the same task, the watch of its progress that frees its
    /// place on the link once its transfer is due to end within its round trip.
    private func startAssetLoad(_ reference: AssetReference) {
        let loadAsset = self.loadAsset, now = self.now, item = Item(reference), linkRate = measure.bytesPerSecond
        startLoad(item) { number in
            let forecast = Locked(TransferForecast(started: now(), linkRate: linkRate))
            let (ending, endingInput) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await loadAsset(reference) { progress in
                        let due = forecast.withLock { forecast in
                            forecast.record(progress, at: now())
                            return forecast.endsWithinRoundTrip
                        }
                        if due { endingInput.yield() }
                    }
                    endingInput.finish()
                }
                group.addTask {
                    for await _ in ending {
                        await self.loadEnding(item, number: number)
                        return
                    }
                }
            }
            await self.transferred(forecast.withLock { $0 })
            await self.loadEnded(item, number: number, beat: nil)
        }
    }

    private func transferred(_ forecast: TransferForecast) { measure.transferred(forecast) }

    /// The asset load `number` of `item` is due to end within its round trip: the next one may start.
    private func loadEnding(_ item: Item, number: Int) {
        guard loads[item]?.number == number, loads[item]?.ending == false else { return }
        loads[item]?.ending = true
        wake()
    }

    private func startLoad(_ item: Item, _ body: @escaping @Sendable (Int) async -> Void) {
        let number = take()
        let task = Task { await body(number) }
        loads[item] = Load(number: number, task: task)
        unfinished[number] = task
    }

    private func loadEnded(_ item: Item, number: Int, beat: Beat?) {
        unfinished[number] = nil
        guard loads[item]?.number == number else { return }  // cancelled: no longer wanted
        loads[item] = nil
        if case .beat(let id) = item, let beat { known[id] = beat }
        settledInWindow.insert(item)
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

    /// The assets whose loads are under way, and which of them are due to end within their round trip (tests).
    public var loadingAssets: (all: Set<AssetPath>, ending: Set<AssetPath>) {
        var all: Set<AssetPath> = [], ending: Set<AssetPath> = []
        for (item, load) in loads {
            guard case .asset(let path, _) = item else { continue }
            all.insert(path)
            if load.ending { ending.insert(path) }
        }
        return (all, ending)
    }

    /// The beats whose loads are under way (tests).
    public var loading: Set<String> {
        Set(loads.keys.compactMap { if case .beat(let id) = $0 { id } else { nil } })
    }

    /// Waits until every window's work and every load has ended, cancelled ones included (tests and the bench).
    public func settle() async {
        while let (number, task) = unfinished.first {
            await task.value
            if unfinished[number] == task { unfinished[number] = nil }
        }
    }
}
