/// The beats around the reading position that should be in memory: up to `behind` beats back along
/// the history, and every beat within `ahead` steps forward (every choice target counts), nearest first.
public struct PreloadWindow: Sendable, Equatable {
    public var behind: Int
    public var ahead: Int

    public init(behind: Int = 2, ahead: Int = 5) {
        self.behind = max(0, behind)
        self.ahead = max(0, ahead)
    }

    /// Beat ids forward of `start` by breadth-first depth, `start` excluded, using the beats known so
    /// far (`successors` returns nil for a beat not loaded yet: the walk stops there).
    public func forward(from start: String, successors: (String) -> [String]?) -> [String] {
        var seen: Set<String> = [start]
        var order: [String] = []
        var frontier = [start]
        for _ in 0..<ahead {
            var next: [String] = []
            for id in frontier {
                for successor in successors(id) ?? [] where seen.insert(successor).inserted {
                    order.append(successor)
                    next.append(successor)
                }
            }
            frontier = next
            if frontier.isEmpty { break }
        }
        return order
    }
}
