import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// One pattern for every asset kind (images, sounds): ask the cache at once, load when needed, loads
/// de-duplicated, a byte budget with least-recently-used eviction that releases what it evicts.
///
/// The values are kept behind a lock the actor's methods share with `isResident(_:)`, which answers at once
/// on the caller's thread (the reader's gate on a page's critical assets, without a hop to the pool).
public actor AssetStore<Value: Sendable> {
    /// Gets an asset's bytes, saying which tier answered (the disk cache or the source).
    public typealias Fetch = @Sendable (AssetPath) async throws(AssetLoadError) -> (bytes: [UInt8], tier: LoadTier)
    /// A fetch that reports bytes as they arrive (see `LoadActivity`).
    public typealias ProgressFetch = @Sendable (AssetPath, @escaping @Sendable (TransferProgress) -> Void) async throws(AssetLoadError)
        -> (bytes: [UInt8], tier: LoadTier)
    public typealias Decode = @Sendable (AssetPath, [UInt8]) async throws(AssetLoadError) -> Value

    private let fetch: ProgressFetch
    /// What the loads have received so far, per asset (the retry policy's progress timeout watches it).
    public nonisolated let activity: LoadActivity<AssetPath>
    private let decode: Decode
    private let cost: @Sendable (Value) -> Int
    private let release: @Sendable (Value) async -> Void
    private let events: LoadingEventHub?
    private let subject: @Sendable (AssetPath) -> LoadSubject
    public let budget: Int
    private nonisolated let values: Locked<LRUCache<AssetPath, Value>>
    private var inFlight = InFlightLoads<AssetPath, Value>()
    /// What the kept values cost together.
    public var totalCost: Int { values.withLock { $0.totalCost } }
    /// How many loads were started (a caller joining a running load starts none).
    public var loadsStarted: Int { inFlight.started }

    /// `subject` names an asset in the loading events published to `events`.
    public init(budget: Int, fetch: @escaping Fetch, decode: @escaping Decode, cost: @escaping @Sendable (Value) -> Int,
                release: @escaping @Sendable (Value) async -> Void = { _ in }, events: LoadingEventHub? = nil,
                subject: @escaping @Sendable (AssetPath) -> LoadSubject = { .image($0) }) {
        self.init(budget: budget, progressFetch: { path, _ throws(AssetLoadError) in try await fetch(path) }, decode: decode, cost: cost,
                  release: release, events: events, subject: subject)
    }

    /// `progressFetch` reports bytes as they arrive: `.progress` events and `activity`.
    public init(budget: Int, progressFetch fetch: @escaping ProgressFetch, decode: @escaping Decode, cost: @escaping @Sendable (Value) -> Int,
                release: @escaping @Sendable (Value) async -> Void = { _ in }, events: LoadingEventHub? = nil,
                subject: @escaping @Sendable (AssetPath) -> LoadSubject = { .image($0) }) {
        self.activity = LoadActivity(events: events)
        self.budget = budget
        self.values = Locked(LRUCache(costLimit: budget))
        self.events = events
        self.subject = subject
        self.fetch = fetch
        self.decode = decode
        self.cost = cost
        self.release = release
    }

    /// The value if loaded; never waits on I/O.
    public func get(_ path: AssetPath) -> Value? {
        values.withLock { $0.value(for: path) }
    }

    public func isLoaded(_ path: AssetPath) -> Bool { isResident(path) }

    /// `isLoaded`, at once and from any thread (not counted as a use).
    public nonisolated func isResident(_ path: AssetPath) -> Bool { values.withLock { $0.contains(path) } }

    /// `get`, at once and from any thread (counted as a use, as `get` is).
    public nonisolated func resident(_ path: AssetPath) -> Value? { values.withLock { $0.value(for: path) } }

    /// Loads (or joins the load already running). A caller that is cancelled stops waiting at once;
    /// the load goes on for the others, and is cancelled when nobody waits for it any more.
    public func load(_ path: AssetPath) async throws(AssetLoadError) -> Value {
        if let value = get(path) { return value }
        if let running = inFlight.joinable(path) { return try await running.value() }
        let fetch = self.fetch, decode = self.decode, events = self.events, subject = self.subject(path)
        let report = activity.reporter(for: path, subject: subject)
        let load = inFlight.start(path, subject: path.value) { token throws(AssetLoadError) -> Value in
            events?.publish(.started(subject))
            let start = ContinuousClock.now
            do throws(AssetLoadError) {
                let fetched = try await fetch(path, report)
                if Task.isCancelled { throw AssetLoadError(.cancelled, subject: path.value) }
                let value = try await decode(path, fetched.bytes)
                let duration = ContinuousClock.now - start
                // Kept before it is announced, so whoever hears `.finished` finds it loaded (`isLoaded`).
                await self.ended(path, token: token, value: value)
                events?.publish(.finished(subject, tier: fetched.tier, duration: duration))
                return value
            } catch {
                events?.publish(.failed(subject, error))
                await self.ended(path, token: token, value: nil)
                throw error
            }
        }
        return try await load.value()
    }

    /// Keeps a loaded value and forgets the finished load (unless a newer one replaced it).
    private func ended(_ path: AssetPath, token: Int, value: Value?) async {
        guard inFlight.finished(path, token: token) else { return }
        if let value, !isResident(path) { await insert(value, for: path) }
    }

    /// Starts loading in the background; errors are kept for a later `load` to report again.
    public func preload(_ paths: [AssetPath]) async {
        for path in paths where !isResident(path) {
            _ = try? await load(path)
        }
    }

    /// Loads `path` (or joins its load) for the preloader, handing `progress` every report of its bytes
    /// arriving (`LoadActivity.watch`); a failure is kept for a later `load` to report again.
    public func preload(_ path: AssetPath, progress: @escaping @Sendable (TransferProgress) -> Void) async {
        guard !isResident(path) else { return }
        let watching = activity.watch(path, progress)
        defer { activity.unwatch(path, watching) }
        _ = try? await load(path)
    }

    /// Forgets the asset at `path` (its file changed), releasing its value (a sound leaves the server's
    /// sample cache); a load under way is no longer joined. The next `load` reads the file again.
    public func forget(_ path: AssetPath) async {
        inFlight.forget(path)
        if let value = values.withLock({ $0.removeValue(forKey: path) }) { await release(value) }
    }

    /// Forgets everything (releasing each value).
    public func clear() async {
        inFlight.cancelAll()
        for value in values.withLock({ $0.removeAll() }) { await release(value) }
    }

    private func insert(_ value: Value, for path: AssetPath) async {
        let cost = cost(value)
        for evicted in values.withLock({ $0.insert(value, for: path, cost: cost) }) { await release(evicted.value) }
    }
}
