import DequeModule

/// Values under a cost budget and a count limit, the least recently used evicted first: the one LRU behind
/// the beat cache, the asset stores and the picture cache.
///
/// Exact LRU order with O(1) amortized lookup, touch, insert and eviction, and no scan of the entries:
/// each value carries the stamp of its last use, and every use appends a (key, stamp) pair to a recency
/// queue. Evicting pops the queue's front, skipping pairs that a later use (or a removal) made stale. When
/// an insert or a use finds the queue longer than 2 × count + 16 it keeps only the live pairs: rebuilds cost
/// O(1) per use on average and the queue stays within a small multiple of the values kept.
/// (swift-collections' `OrderedDictionary` would keep the order itself, but moving a key to its end is a
/// removal, which is O(count) there.)
///
/// Inlinable, so each user's key and value types are specialised: generic through its metadata, keeping the
/// ink runtime's states cost a tenth of `pajama test`'s time.
public struct LRUCache<Key: Hashable, Value> {
    /// The most the values may cost together (a single value over it is still kept).
    public let costLimit: Int
    /// The most values kept (at least one is always kept).
    public let countLimit: Int
    @usableFromInline var entries: [Key: Entry] = [:]
    @usableFromInline var recency = Deque<(key: Key, stamp: UInt64)>()
    @usableFromInline var clock: UInt64 = 0
    /// What the kept values cost together.
    @inlinable public var totalCost: Int { keptCost }
    @usableFromInline var keptCost = 0

    @usableFromInline struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var stamp: UInt64

        @inlinable init(value: Value, cost: Int, stamp: UInt64) {
            self.value = value
            self.cost = cost
            self.stamp = stamp
        }
    }

    @inlinable public init(costLimit: Int = .max, countLimit: Int = .max) {
        self.costLimit = costLimit
        self.countLimit = max(1, countLimit)
    }

    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    @inlinable public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// The keys kept, in no particular order.
    @inlinable public var keys: [Key] { Array(entries.keys) }

    /// The value, left where it is in the order.
    @inlinable public func peek(_ key: Key) -> Value? { entries[key]?.value }

    /// The value, which becomes the most recently used.
    @inlinable public mutating func value(for key: Key) -> Value? {
        guard entries[key] != nil else { return nil }
        return touch(key).value
    }

    /// Keeps `value` under `key` as the most recently used (replacing what was there), then evicts the least
    /// recently used values while over the budget or the count limit, never `key` itself. Returns what left
    /// the cache (a replaced value first, then the evicted ones, oldest first) so the caller can release it.
    @inlinable @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> [(key: Key, value: Value)] {
        var removed: [(key: Key, value: Value)] = []
        if let old = entries[key] {
            keptCost -= old.cost
            removed.append((key, old.value))
        }
        clock += 1
        entries[key] = Entry(value: value, cost: cost, stamp: clock)
        keptCost += cost
        push(key, stamp: clock)
        while totalCost > costLimit || entries.count > countLimit, entries.count > 1, let oldest = popLeastRecentlyUsed() {
            removed.append(oldest)
        }
        return removed
    }

    /// Removes the value under `key`, returning it.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let old = entries.removeValue(forKey: key) else { return nil }
        keptCost -= old.cost
        return old.value
    }

    /// Removes every value, returning them.
    @inlinable @discardableResult
    public mutating func removeAll() -> [Value] {
        let values = entries.values.map(\.value)
        entries = [:]
        recency = []
        keptCost = 0
        return values
    }

    /// Pairs in the recency queue, stale ones included (for tests of its bound).
    var queueLength: Int { recency.count }

    @inlinable mutating func touch(_ key: Key) -> Entry {
        clock += 1
        entries[key]!.stamp = clock
        push(key, stamp: clock)
        return entries[key]!
    }

    @inlinable mutating func push(_ key: Key, stamp: UInt64) {
        recency.append((key, stamp))
        if recency.count > 2 * entries.count + 16 {
            recency = Deque(recency.filter { entries[$0.key]?.stamp == $0.stamp })
        }
    }

    /// Removes and returns the least recently used value, skipping stale pairs.
    @inlinable mutating func popLeastRecentlyUsed() -> (key: Key, value: Value)? {
        while let (key, stamp) = recency.popFirst() {
            guard let entry = entries[key], entry.stamp == stamp else { continue }
            entries[key] = nil
            keptCost -= entry.cost
            return (key, entry.value)
        }
        return nil
    }
}

extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}
extension LRUCache.Entry: Sendable where Key: Sendable, Value: Sendable {}
