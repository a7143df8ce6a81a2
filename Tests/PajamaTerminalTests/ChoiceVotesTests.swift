import PajamaModel
import Testing

@testable import PajamaTerminal

/// Audience votes in the reader (`pajama host --votes`): a follower's number keys, arrows and Enter vote
/// instead of moving; the owner sees the count beside each choice and takes the leading one with `g`; in plain
/// mode a follower's number votes, `t` lists the votes and the owner's `g` takes the lead.
@MainActor @Suite struct ChoiceVotesTests {
    static let ask = StoryLocation(beatId: "fork", pageId: "ask", lineIndex: 0)

    @Test func aFollowersNumberVotesAndTheCountsShowBesideTheChoices() {
        var h = PresenterHarness(role: .follower(owner: "Ana"))
        h.show(Fixture.choicePage)
        h.handle(.votes(ChoiceVotes(location: Self.ask, counts: [0, 0, 0])))
        #expect(h.press(.character("2")) == [.vote(Self.ask, 1)])
        #expect(h.text().contains("you voted for 2 · Ana chooses"), "\(h.text())")
        #expect(h.text().contains("2. Right up the hill · yours"), "\(h.text())")
        // The totals from the host keep the follower's own vote.
        h.handle(.votes(ChoiceVotes(location: Self.ask, counts: [1, 2, 0])))
        let text = h.text()
        #expect(text.contains("1. Left by the river · 1 vote\n") || text.contains("1. Left by the river · 1 vote "), "\(text)")
        #expect(text.contains("Right up the hill · 2 votes, yours"), "\(text)")
        #expect(!text.contains("Back to bed ·"), "no votes, nothing said")
        // The same number again sends nothing; arrows then Enter change the vote.
        #expect(h.press(.character("2")) == [])
        #expect(h.press(.down, .enter) == [.vote(Self.ask, 2)])
        // Votes for another page are not this page's.
        h.handle(.votes(ChoiceVotes(location: StoryLocation(beatId: "other", pageId: "p"), counts: [5, 5, 5])))
        #expect(!h.text().contains("5 votes"))
    }

    @Test func withoutVotesAFollowersNumberMovesNobodyAsBefore() {
        var h = PresenterHarness(role: .follower(owner: "Ana"))
        h.show(Fixture.choicePage)
        #expect(h.press(.character("2")) == [])
        #expect(h.text().contains("only Ana turns the pages"))
        #expect(!h.text().contains("·  yours"))
    }

    @Test func theOwnerSeesTheCountsAndGTakesTheLeadingVote() {
        var h = PresenterHarness(role: .host(join: "pajama join …", followers: 3))
        h.show(Fixture.choicePage)
        h.handle(.votes(ChoiceVotes(location: Self.ask, counts: [0, 0, 0])))
        #expect(h.statusLine().contains("no votes yet"), "\(h.statusLine())")
        #expect(h.press(.character("g")) == [])
        #expect(h.text().contains("no votes on this page yet"))
        h.handle(.votes(ChoiceVotes(location: Self.ask, counts: [1, 2, 2])))
        #expect(h.text().contains("Right up the hill · 2 votes"), "\(h.text())")
        h.press(.character("x"))  // the notice goes with the next key
        #expect(h.statusLine().contains("5 voted · g takes 2"), "\(h.statusLine())")
        // A tie goes to the first of the leaders; the owner may take any choice too.
        #expect(h.press(.character("g")) == [.move(.choose(1))])
        #expect(h.press(.character("3")) == [.move(.choose(2))])
        h.press(.character("?"))
        #expect(h.text().contains("take the choice with the most votes"), "the owner's help names g")
    }

    @Test func gSaysWhatItIsForWithoutVotes() {
        var h = PresenterHarness()
        h.show(Fixture.choicePage)
        #expect(h.press(.character("g")) == [])
        #expect(h.text().contains("g takes the leading vote when hosting with --votes"))
        h.press(.character("?"))
        #expect(!h.text().contains("most votes"), "a reader alone is not told of g")
    }

    @Test func aCountTooWideForTheChoicesRowGoesOnARowOfItsOwn() {
        var h = PresenterHarness(width: 30, role: .host(join: "j", followers: 12))
        h.show(Fixture.choicePage)
        h.handle(.votes(ChoiceVotes(location: Self.ask, counts: [12, 0, 0])))
        let lines = h.text().split(separator: "\n").map(String.init)
        let row = lines.firstIndex { $0.contains("1. Left by the river") }
        #expect(row != nil && lines[row! + 1].contains("12 votes"), "\(lines)")
    }

    @Test func plainModeVotesListsAndTakesTheLead() {
        var follower = PlainPresenter(role: .follower(owner: "Olive"), readAloud: .off)
        _ = follower.handle(.reader(.stateChanged(Fixture.choicePage)))
        _ = follower.handle(.workFinished(Fixture.choicePage))
        #expect(follower.handle(.line("t")).text.contains("This reading takes no votes"))
        _ = follower.handle(.votes(ChoiceVotes(location: Self.ask, counts: [0, 0, 0])))
        let voted = follower.handle(.line("2"))
        #expect(voted.effects == [.vote(Self.ask, 1)])
        #expect(voted.text.contains("(you voted for 2: Right up the hill; Olive chooses)"), "\(voted.text)")
        _ = follower.handle(.votes(ChoiceVotes(location: Self.ask, counts: [0, 3, 1])))
        let listed = follower.handle(.line("t")).text
        #expect(listed.contains("1. Left by the river: no votes"), "\(listed)")
        #expect(listed.contains("2. Right up the hill: 3 votes, yours"), "\(listed)")
        #expect(listed.contains("3. Back to bed: 1 vote"), "\(listed)")

        var owner = PlainPresenter(role: .host(join: "j", followers: 4), readAloud: .off)
        _ = owner.handle(.reader(.stateChanged(Fixture.choicePage)))
        _ = owner.handle(.workFinished(Fixture.choicePage))
        _ = owner.handle(.votes(ChoiceVotes(location: Self.ask, counts: [0, 3, 1])))
        let taken = owner.handle(.line("g"))
        #expect(taken.effects == [.move(.choose(1))])
        #expect(taken.text.contains("(the leading vote: 2, 3 votes)"), "\(taken.text)")
    }
}
