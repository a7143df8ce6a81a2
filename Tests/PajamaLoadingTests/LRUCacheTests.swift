@testable import PajamaLoading
import Testing

@Suite struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsedBeyondTheCount() {
        var cache = LRUCache<String, Int>(countLimit: 2)
        #expect(cache.insert(1, for: "a", cost: 0).isEmpty)
        #expect(cache.insert(2, for: "b", cost: 0).isEmpty)
        #expect(cache.value(for: "a") == 1)  // a is now more recent than b
        let evicted = cache.insert(3, for: "c", cost: 0)
        #expect(evicted.map(\.key) == ["b"] && evicted.map(\.value) == [2])
        #expect(cache.contains("a") && cache.contains("c") && !cache.contains("b"))
        #expect(cache.count == 2)
    }

    @Test func peekLeavesTheOrderAlone() {
        var cache = LRUCache<String, Int>(countLimit: 2)
        cache.insert(1, for: "a", cost: 0)
        cache.insert(2, for: "b", cost: 0)
        #expect(cache.peek("a") == 1)
        #expect(cache.insert(3, for: "c", cost: 0).map(\.key) == ["a"])
    }

    @Test func evictsOldestFirstUntilUnderTheCostBudget() {
        var cache = LRUCache<String, String>(costLimit: 10)
        cache.insert("a", for: "a", cost: 4)
        cache.insert("b", for: "b", cost: 4)
        cache.insert("c", for: "c", cost: 2)
        #expect(cache.totalCost == 10)
        let evicted = cache.insert("d", for: "d", cost: 7)
        #expect(evicted.map(\.key) == ["a", "b"])
        #expect(cache.totalCost == 9)
        #expect(cache.count == 2)
    }

    @Test func aSingleValueOverTheBudgetIsKept() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.insert(1, for: "small", cost: 3)
        #expect(cache.insert(2, for: "big", cost: 50).map(\.key) == ["small"])
        #expect(cache.value(for: "big") == 2)
        #expect(cache.totalCost == 50)
    }

    @Test func replacingAValueReturnsTheOldOneAndUpdatesTheCost() {
        var cache = LRUCache<String, Int>(costLimit: 100)
        cache.insert(1, for: "a", cost: 10)
        let removed = cache.insert(2, for: "a", cost: 30)
        #expect(removed.map(\.value) == [1])
        #expect(cache.count == 1 && cache.totalCost == 30 && cache.peek("a") == 2)
    }

    @Test func removalsKeepTheCostAndOrderRight() {
        var cache = LRUCache<Int, Int>(costLimit: 3)
        cache.insert(1, for: 1, cost: 1)
        cache.insert(2, for: 2, cost: 1)
        cache.insert(3, for: 3, cost: 1)
        #expect(cache.removeValue(forKey: 1) == 1)
        #expect(cache.removeValue(forKey: 1) == nil)
        #expect(cache.totalCost == 2)
        // The removed key's stale place in the order is skipped: 2 goes next.
        #expect(cache.insert(4, for: 4, cost: 2).map(\.key) == [2])
        #expect(Set(cache.removeAll()) == [3, 4])
        #expect(cache.isEmpty && cache.totalCost == 0)
    }

    /// Touching the same values again and again never grows the order beyond twice the values (plus 16).
    @Test func theOrderStaysBoundedUnderManyTouches() {
        var cache = LRUCache<Int, Int>(countLimit: 10)
        for key in 0..<10 { cache.insert(key, for: key, cost: 0) }
        for round in 0..<10_000 { _ = cache.value(for: round % 3) }
        #expect(cache.queueLength <= 2 * cache.count + 16)
        // The three keys touched last are the most recent: the next three inserts evict 3, 4, 5 (oldest first).
        let evicted = (10..<13).flatMap { cache.insert($0, for: $0, cost: 0).map(\.key) }
        #expect(evicted == [3, 4, 5])
    }

    /// Matches a brute-force model (a list in order of use) over a long pseudo-random run.
    @Test func matchesAListModel() {
        var cache = LRUCache<Int, Int>(costLimit: 40, countLimit: 8)
        var model: [(key: Int, cost: Int)] = []  // least recently used first
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<5_000 {
            let key = next(20)
            switch next(3) {
            case 0:
                let found = cache.value(for: key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    model.append(model.remove(at: index))
                    #expect(found == key)
                } else {
                    #expect(found == nil)
                }
            case 1:
                let cost = next(12)
                let removed = cache.insert(key, for: key, cost: cost).map(\.key)
                var expected: [Int] = []
                if let index = model.firstIndex(where: { $0.key == key }) { model.remove(at: index); expected.append(key) }
                model.append((key, cost))
                while model.reduce(0, { $0 + $1.cost }) > 40 || model.count > 8, model.count > 1 {
                    expected.append(model.removeFirst().key)
                }
                #expect(removed == expected)
            default:
                let removed = cache.removeValue(forKey: key)
                let index = model.firstIndex(where: { $0.key == key })
                if let index { model.remove(at: index) }
                #expect((removed != nil) == (index != nil))
            }
            #expect(cache.count == model.count)
            #expect(cache.totalCost == model.reduce(0) { $0 + $1.cost })
        }
    }
}
