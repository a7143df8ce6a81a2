/// Keeps the window of beats around the reader loaded, and their assets by criticality.
///
/// On every move the previous window's work is cancelled and a new one starts: the next beat first
/// (the forward move always beats general cache filling), then the rest of the window breadth-first,
/// at most `maximumConcurrentLoads` at once; then the window's assets, critical before important
/// before optional, nearest beats first.
public actor BeatPreloader {
    public let window: PreloadWindow
    public let maximumConcurrentLoads: Int
    private let loadBeat: @Sendable (String) async throws(AssetLoadError) -> Beat
    private let preloadAssets: @Sendable ([Beat]) async -> Void
    private var work: Task<Void, Never>?
    public private(set) var lastWindow: [String] = []
    public private(set) var isEnabled: Bool

    public init(window: PreloadWindow = PreloadWindow(), maximumConcurrentLoads: Int = 3, enabled: Bool = true,
                loadBeat: @escaping @Sendable (String) async throws(AssetLoadError) -> Beat,
                preloadAssets: @escaping @Sendable ([Beat]) async -> Void) {
        self.window = window
        self.maximumConcurrentLoads = max(1, maximumConcurrentLoads)
        self.isEnabled = enabled
        self.loadBeat = loadBeat
        self.preloadAssets = preloadAssets
    }

    public func setEnabled(_ enabled: Bool) {
        isEnabled = enabled
        if !enabled { work?.cancel() }
    }

    /// Slides the window to `beatId`, with `recent` the beats read just before (most recent last).
    public func readerMoved(to beatId: String, recent: [String]) {
        work?.cancel()
        guard isEnabled else { return }
        let behind = Array(recent.filter { $0 != beatId }.suffix(window.behind).reversed())
        let loadBeat = self.loadBeat, preloadAssets = self.preloadAssets, window = self.window
        let limit = maximumConcurrentLoads
        work = Task { [weak self] in
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
            await self?.record([beatId] + order + behind)
            if Task.isCancelled { return }
            await preloadAssets(([beatId] + order + behind).compactMap { known[$0] })
        }
    }

    private func record(_ ids: [String]) { lastWindow = ids }

    /// Waits for the current window's work (tests and the bench).
    public func settle() async { await work?.value }

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
