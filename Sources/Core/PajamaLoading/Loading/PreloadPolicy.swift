import PajamaModel

/// Which beats the preloader wants in memory around the reader, in the order the reader may need them.
///
/// A pure value: `plan(from:behind:known:)` looks only at the beats it is given. From the reader's beat
/// it follows successors breadth-first (so the order is by steps ahead, the next beat first) up to
/// `ahead` steps, crossing at most `choices` choices, and at most `beyondChoice` steps past each choice
/// crossed (its target is the first). A step along `nextBeatId`, or through a choice whose every option
/// goes to the same beat, crosses no choice: the committed path is followed deep, branches stay
/// shallow. Every beat within `everyBeatWithin` steps is wanted too, whatever the choices (the beats
/// the reader may reach before a fetch started now could end: `timed`). Then up to `behind` beats back.
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
    /// Steps within which every beat is wanted, whatever the choices (0: none past the budget above).
    public var everyBeatWithin: Int
    /// Whether the preloader widens `everyBeatWithin` to what it measures of the link and the reader
    /// (`LinkMeasure`: `timed` for the round trips, rates, largest asset and page turns it has seen).
    public var byTime: Bool

    public init(behind: Int = 2, ahead: Int = 5, choices: Int = 1, beyondChoice: Int = 1, everyBeatWithin: Int = 0, byTime: Bool = false) {
        self.behind = max(0, behind)
        self.ahead = max(0, ahead)
        self.choices = max(0, choices)
        self.beyondChoice = max(0, beyondChoice)
        self.everyBeatWithin = max(0, everyBeatWithin)
        self.byTime = byTime
    }

    /// The app's policy: the standard window, widened by time to what the preloader measures
    /// (on a quick link with small files, the standard window itself).
    public static let measured = PreloadPolicy(byTime: true)

    /// This policy with every beat within `steps` wanted too (at most `ahead`), when it looks ahead by time.
    public func widened(to steps: Int) -> PreloadPolicy {
        guard byTime else { return self }
        var widened = self
        widened.everyBeatWithin = max(everyBeatWithin, min(steps, ahead))
        return widened
    }

    /// The default: the committed path 5 beats deep, the targets of the next choice on it (not the beats
    /// after them), 2 beats back.
    public static let standard = PreloadPolicy()

    /// Round 1's window, for comparison: every beat within `ahead` steps, whatever the choices.
    public static func wide(ahead: Int = 5, behind: Int = 2) -> PreloadPolicy {
        PreloadPolicy(behind: behind, ahead: ahead, choices: ahead, beyondChoice: ahead)
    }

    /// Looks ahead by time, not steps: the standard window, and every beat the reader may reach before
    /// its largest asset could arrive if its fetch started now. A beat `d` steps away is needed at the
    /// earliest `d` pages from now; its beat must be fetched before its assets are known (two round
    /// trips, `latency` seconds each) and then its asset sent (`largestAsset` bytes at `bytesPerSecond`).
    /// So every beat within ceil((2 x latency + atOnce x largestAsset / bytesPerSecond) / pageSeconds) steps
    /// is wanted; past that, only the committed path and the next choice's targets, as in `standard`.
    /// `atOnce`: how many such assets one turn may need at the same time (the targets of a choice are all
    /// needed by the turn after it: 2 for a choice of two pictures).
    public static func timed(pageSeconds: Double, latency: Double, bytesPerSecond: Double, largestAsset: Int, atOnce: Int = 1) -> PreloadPolicy {
        guard pageSeconds > 0, bytesPerSecond > 0 else { return .standard }
        let lead = 2 * max(0, latency) + Double(max(1, atOnce) * max(0, largestAsset)) / bytesPerSecond
        let steps = Int((lead / pageSeconds).rounded(.up))
        return PreloadPolicy(everyBeatWithin: min(steps, standard.ahead))
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
        if everyBeatWithin > 0 { order = Self.merged(order, Self.distances(from: beatId, within: everyBeatWithin, known: known)) }
        var wanted = Set(order)
        for id in recent.prefix(behind) where wanted.insert(id).inserted { order.append(id) }
        return order
    }

    /// Every beat within `within` steps of `beatId` (those known to lead there), by its fewest steps:
    /// the earliest the reader can need it.
    static func distances(from beatId: String, within: Int, known: (String) -> Beat?) -> [(id: String, steps: Int)] {
        var result: [(id: String, steps: Int)] = [(beatId, 0)]
        var seen: Set<String> = [beatId]
        var head = 0
        while head < result.count {
            let (id, steps) = result[head]
            head += 1
            guard steps < within, let beat = known(id) else { continue }
            for (successor, _) in successors(of: beat) where seen.insert(successor).inserted {
                result.append((successor, steps + 1))
            }
        }
        return result
    }

    /// `planned` (breadth-first, so by steps) with the beats of `near` it lacks, each placed with the
    /// beats as many steps away: the earliest deadline first.
    static func merged(_ planned: [String], _ near: [(id: String, steps: Int)]) -> [String] {
        var steps: [String: Int] = [:]
        for (id, distance) in near { steps[id] = distance }
        var order = planned
        let plannedSet = Set(planned)
        for (id, distance) in near where !plannedSet.contains(id) {
            let index = order.firstIndex { steps[$0, default: Int.max] > distance } ?? order.endIndex
            order.insert(id, at: index)
        }
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
