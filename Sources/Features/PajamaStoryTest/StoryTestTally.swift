import PajamaModel

/// What one job of a test run saw, merged with the other jobs' at the end (`merge`): every set and count
/// is order-free and each problem keeps its shortest way, so the merged tally is the same however the runs
/// were shared out.
struct StoryTestTally {
    var beats: Set<String> = []
    /// `beat/page` for every page reached.
    var pages: Set<String> = []
    var parts: Set<String> = []
    /// The choices weighed, in the source's words (`StoryPartsSource.choicesWeighed`).
    var weighed: Set<String> = []
    var endings: [String: Int] = [:]
    /// By `Problem.identity`, the one with the shortest way to it.
    var problems: [String: StoryTestReport.Problem] = [:]
    /// Every picture and sound named on a page reached, with the first place (by the shortest way) naming it.
    var assets: [AssetPath: Place] = [:]

    struct Place: Comparable {
        var reference: AssetReference
        var choices: [Int]

        static func < (a: Place, b: Place) -> Bool {
            if a.choices.count != b.choices.count { return a.choices.count < b.choices.count }
            if a.choices != b.choices { return a.choices.lexicographicallyPrecedes(b.choices) }
            return (a.reference.beatId, a.reference.pageId) < (b.reference.beatId, b.reference.pageId)
        }
    }

    /// Notes `beat`, reached along `choices`: its pictures and sounds, and, when `countsPages`, its id and
    /// its pages (a story whose coverage is its parts leaves them out: its beat ids are the ways to them, one
    /// per way, a set that only grows and that nothing reads).
    mutating func reached(_ beat: Beat, choices: [Int], countsPages: Bool) {
        if countsPages {
            beats.insert(beat.id)
            for page in beat.pages { pages.insert("\(beat.id)/\(page.id)") }
        }
        for reference in beat.assetReferences {
            let place = Place(reference: reference, choices: choices)
            if let known = assets[reference.path], known <= place { continue }
            assets[reference.path] = place
        }
    }

    mutating func found(_ problem: StoryTestReport.Problem) {
        if let known = problems[problem.identity], known <= problem { return }
        problems[problem.identity] = problem
    }

    mutating func merge(_ other: StoryTestTally) {
        beats.formUnion(other.beats)
        pages.formUnion(other.pages)
        parts.formUnion(other.parts)
        weighed.formUnion(other.weighed)
        endings.merge(other.endings, uniquingKeysWith: +)
        for problem in other.problems.values { found(problem) }
        for (path, place) in other.assets where assets[path].map({ place < $0 }) ?? true { assets[path] = place }
    }
}
