import PajamaModel
import PajamaReading

/// The co-readers' votes on a choice page (`pajama host --votes`), as the reader shows them: the count
/// beside each choice, and a follower's own vote. They advise: only the owner takes a choice.
public struct ChoiceVotes: Sendable, Equatable {
    /// The page voted on (nil before the owner's first choice page).
    public var location: StoryLocation?
    /// Votes for each choice (0-based).
    public var counts: [Int]
    /// This follower's own vote there (nil: none yet, or the owner's reader).
    public var mine: Int?

    public init(location: StoryLocation?, counts: [Int], mine: Int? = nil) {
        self.location = location
        self.counts = counts
        self.mine = mine
    }

    /// Votes for choice `index`.
    public func count(_ index: Int) -> Int { counts.indices.contains(index) ? counts[index] : 0 }

    /// The choice with the most votes (the first of a tie), nil while nobody voted.
    public var leader: Int? {
        guard let most = counts.max(), most > 0 else { return nil }
        return counts.firstIndex(of: most)
    }

    /// What is said beside choice `index`: "3 votes", "1 vote, yours", "yours"; nil for none.
    public func label(_ index: Int) -> String? {
        let n = count(index)
        let votes = n == 0 ? nil : n == 1 ? "1 vote" : "\(n) votes"
        let yours = mine == index ? "yours" : nil
        let parts = [votes, yours].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The votes on `page` when it is a choice page of a session that takes votes (`votes` not nil): these,
    /// when they are that page's, else none yet (the count of the page before is not this page's).
    static func on(_ page: PageState?, _ votes: ChoiceVotes?) -> ChoiceVotes? {
        guard let votes, let page, !page.page.choices.isEmpty else { return nil }
        if votes.location == page.location { return votes }
        return ChoiceVotes(location: page.location, counts: Array(repeating: 0, count: page.page.choices.count))
    }

    /// These votes from the session, with the follower's own vote of `before` kept while they are for the
    /// same page.
    func keepingMine(from before: ChoiceVotes?) -> ChoiceVotes {
        var kept = self
        if kept.mine == nil, let before, before.location == location { kept.mine = before.mine }
        return kept
    }
}
