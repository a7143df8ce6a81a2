import PajamaModel

/// The host's count of the followers' votes on the owner's page (`pajama host --votes`): one vote a
/// follower, for a choice of the page the owner is on, changeable until the owner moves on; a new page
/// starts a new count. A vote for another page (one sent as the owner moved) or a choice the page does not
/// have changes nothing.
struct VoteTally: Sendable, Equatable {
    /// The owner's page.
    private(set) var location: StoryLocation?
    /// Votes for each of its choices.
    private(set) var counts: [Int] = []
    /// Each voting follower's choice, by follower id.
    private var ballots: [Int: Int] = [:]

    /// The count as told.
    var votes: SessionVotes { SessionVotes(location: location, counts: counts) }

    /// The owner is at `location`, a page of `choices` choices: the count starts again there. False when
    /// nothing changed (the same page).
    mutating func moved(to location: StoryLocation, choices: Int) -> Bool {
        guard location != self.location else { return false }
        self.location = location
        counts = Array(repeating: 0, count: min(max(0, choices), SessionVotes.maximumChoices))
        ballots = [:]
        return true
    }

    /// `follower` votes for `choice` (nil: takes its vote back) on the page at `location`. False when
    /// nothing changed: the same vote again, another page, a choice the page has not.
    mutating func cast(_ follower: Int, at location: StoryLocation, choice: Int?) -> Bool {
        guard location == self.location else { return false }
        if let choice, !counts.indices.contains(choice) { return false }
        let before = ballots[follower]
        guard before != choice else { return false }
        if let before { counts[before] -= 1 }
        if let choice { counts[choice] += 1 }
        ballots[follower] = choice
        return true
    }

    /// `follower` left: its vote goes. False if it had none.
    mutating func remove(_ follower: Int) -> Bool {
        guard let choice = ballots.removeValue(forKey: follower) else { return false }
        counts[choice] -= 1
        return true
    }
}
