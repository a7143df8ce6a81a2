import PajamaModel

/// Audience votes (`pajama host --votes`, docs/coreading.md, "Votes"): a follower's number keys (and ↑ ↓
/// Enter, a click) vote for a choice of the owner's page instead of saying whom it follows; the owner sees the
/// count beside each choice and takes any, or the leading one with `g`. The votes advise: only the owner moves.
extension ReaderPresenter {
    /// The votes on the page shown, when it is a choice page of a session that takes votes.
    var votesHere: ChoiceVotes? { ChoiceVotes.on(pageState, votes) }

    /// Whether this reader's choices are votes: a follower on a choice page of a session that takes votes.
    var mayVote: Bool {
        guard case .follower = role else { return false }
        return votesHere != nil
    }

    /// The follower votes for choice `index` of the owner's page: said at once, sent to the host.
    mutating func vote(for index: Int) -> [ReaderEffect] {
        guard case .follower(let owner) = role, var here = votesHere, let page = pageState, page.page.choices.indices.contains(index) else {
            return []
        }
        selectedChoice = index
        guard here.mine != index else {
            notice = "your vote: \(index + 1) · \(owner) chooses"
            return []
        }
        here.mine = index
        votes = here
        notice = "you voted for \(index + 1) · \(owner) chooses"
        return [.vote(page.location, index)]
    }

    /// The owner takes the choice with the most votes (the first of a tie).
    mutating func takeLeadingVote() -> [ReaderEffect] {
        guard case .host = role, let here = votesHere else {
            notice = "g takes the leading vote when hosting with --votes"
            return []
        }
        guard let leader = here.leader else {
            notice = "no votes on this page yet"
            return []
        }
        selectedChoice = leader
        return take(leader)
    }

    /// New votes from the session: the follower's own vote is kept while they are for the same page.
    mutating func votesArrived(_ new: ChoiceVotes) { votes = new.keepingMine(from: votes) }

    /// The owner's status line: how many voted on the page, and the key that takes the lead.
    static func voted(_ votes: ChoiceVotes) -> String {
        let total = votes.counts.reduce(0, +)
        guard total > 0 else { return "no votes yet" }
        return "\(total) voted · g takes \(votes.leader.map { $0 + 1 } ?? 1)"
    }
}
