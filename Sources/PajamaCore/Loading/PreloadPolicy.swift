/// Which beats the preloader wants in memory around the reader, in the order the reader may need them.
///
/// A pure value: `plan(from:behind:known:)` looks only at the beats it is given. From the reader's beat
/// it follows successors breadth-first (so the order is by steps ahead, the next beat first) up to
/// `ahead` steps, crossing at most `choices` choices, and at most `beyondChoice` steps past each choice
/// crossed (its target is the first). A step along `nextBeatId`, or through a choice whose every option
/// goes to the same beat, crosses no choice: the committed path is followed deep, branches stay
/// shallow. Then up to `behind` beats back.
///
/// Why the default stops at the targets of the next choice: a reader's choice is unknown until the key
/// is pressed, so every target of a choice the reader reaches must be in memory before it or that turn
/// stalls. Those targets are needed whichever way the reader goes; the beats past them are needed only
/// on the branch taken, and there is a whole page's reading time to fetch them once it is known
/// (docs/loading.md, "Preload policy").
public struct PreloadPolicy: Sendable, Equatable {
    /// Beats back along the history kept loaded (the reader's recent beats, most recent first).
    public var behind: Int
    /// Steps ahead followed at most (a step is one beat).
    public var ahead: Int
    /// Choices crossed at most on the way to a wanted beat.
    public var choices: Int
    /// Steps followed past a choice at most, its target included.
    public var beyondChoice: Int

    public init(behind: Int = 2, ahead: Int = 5, choices: Int = 1, beyondChoice: Int = 1) {
        self.behind = max(0, behind)
        self.ahead = max(0, ahead)
        self.choices = max(0, choices)
        self.beyondChoice = max(0, beyondChoice)
    }

    /// The default: the committed path 5 beats deep, the targets of the next choice on it (not the beats
    /// after them), 2 beats back.
    public static let standard = PreloadPolicy()

    /// Round 1's window, for comparison: every beat within `ahead` steps, whatever the choices.
    public static func wide(ahead: Int = 5, behind: Int = 2) -> PreloadPolicy {
        PreloadPolicy(behind: behind, ahead: ahead, choices: ahead, beyondChoice: ahead)
    }

    /// The wanted beats in need order: `beatId`, the beats ahead nearest first, then `recent` (the
    /// reader's recent beats, most recent first; the first `behind` of them, wanted ones skipped).
    /// `known` answers the beats already loaded: the plan cannot see past a beat it does not know yet, so
    /// the preloader plans again as beats arrive.
    public func plan(from beatId: String, behind recent: [String], known: (String) -> Beat?) -> [String] {
        var order = [beatId]
        // What is left of the budget at each beat, per path that reached it: a beat is walked again from
        // a path that left more steps or more choices, since it may reach further from there.
        var budgets: [String: [Budget]] = [beatId: [Budget(steps: ahead, choices: choices)]]
        var queue: [(id: String, budget: Budget)] = [(beatId, Budget(steps: ahead, choices: choices))]
        var head = 0
        while head < queue.count {
            let (id, budget) = queue[head]
            head += 1
            guard budget.steps > 0, let beat = known(id) else { continue }
            for (successor, isBranch) in Self.successors(of: beat) {
                let left: Budget
                if isBranch {
                    guard budget.choices > 0, beyondChoice > 0 else { continue }
                    left = Budget(steps: min(budget.steps, beyondChoice) - 1, choices: budget.choices - 1)
                } else {
                    left = Budget(steps: budget.steps - 1, choices: budget.choices)
                }
                if let seen = budgets[successor] {
                    guard !seen.contains(where: { $0.covers(left) }) else { continue }
                } else {
                    order.append(successor)
                }
                budgets[successor, default: []].append(left)
                queue.append((successor, left))
            }
        }
        var wanted = Set(order)
        for id in recent.prefix(behind) where wanted.insert(id).inserted { order.append(id) }
        return order
    }

    /// Steps and choices still allowed on one path.
    private struct Budget {
        var steps: Int
        var choices: Int
        func covers(_ other: Budget) -> Bool { steps >= other.steps && choices >= other.choices }
    }

    /// Every beat reading can go to from `beat`, and whether going there is one branch of a choice
    /// (a choice between two or more different beats); the next beat first.
    static func successors(of beat: Beat) -> [(id: String, isBranch: Bool)] {
        var result: [(id: String, isBranch: Bool)] = []
        if let next = beat.nextBeatId { result.append((next, false)) }
        for page in beat.pages {
            guard case .choice(_, let options) = page.kind else { continue }
            var targets: [String] = []
            for option in options where !targets.contains(option.targetBeatId) { targets.append(option.targetBeatId) }
            for target in targets where !result.contains(where: { $0.id == target }) {
                result.append((target, targets.count > 1))
            }
        }
        return result
    }
}
