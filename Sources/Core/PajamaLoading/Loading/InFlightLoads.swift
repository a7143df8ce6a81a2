import PajamaModel

/// The loads running now, at most one per key: a second caller joins the running `SharedLoad` instead of
/// starting another. The one in-flight de-duplication of the engine, for beats (`BeatStorageCoordinator`)
/// and assets (`AssetStore`); the owning actor calls `finished` when a load ends, and a token makes sure an
/// older load's end never forgets a newer load of the same key.
struct InFlightLoads<Key: Hashable & Sendable, Value: Sendable> {
    private var running: [Key: (load: SharedLoad<Value>, token: Int)] = [:]
    /// How many loads were started (also the last token given).
    private(set) var started = 0

    /// The load running for `key` that a caller may still join (nil when none, or when every caller of it
    /// gave up and it was cancelled).
    func joinable(_ key: Key) -> SharedLoad<Value>? {
        guard let entry = running[key], !entry.load.isAbandoned else { return nil }
        return entry.load
    }

    /// Starts the load of `key`; `work` gets the token to hand to `finished` when it ends.
    mutating func start(
        _ key: Key, subject: String, work: @escaping @Sendable (_ token: Int) async throws(AssetLoadError) -> Value
    ) -> SharedLoad<Value> {
        started += 1
        let token = started
        let load = SharedLoad(subject: subject) { () throws(AssetLoadError) -> Value in try await work(token) }
        running[key] = (load, token)
        return load
    }

    /// Forgets the finished load of `key` named by `token`; false when a newer load had replaced it.
    @discardableResult
    mutating func finished(_ key: Key, token: Int) -> Bool {
        guard running[key]?.token == token else { return false }
        running[key] = nil
        return true
    }

    /// Forgets the load of `key` (it goes on for those who wait for it; nobody new joins it).
    mutating func forget(_ key: Key) {
        running[key] = nil
    }

    /// Forgets every running load (they go on for those who wait; nobody new joins them).
    mutating func forgetAll() {
        running = [:]
    }

    /// Cancels and forgets every running load.
    mutating func cancelAll() {
        for entry in running.values { entry.load.cancel() }
        running = [:]
    }
}
