import PajamaModel
import Testing
@testable import PajamaCoReading

/// The host's count of votes: one a follower, for a choice of the owner's page, changeable; a new page
/// starts again; a vote for another page or a choice it has not counts nothing.
@Suite struct VoteTallyTests {
    @Test func oneVoteAFollowerChangeableAndTakenBack() {
        var tally = VoteTally()
        let changed1 = tally.moved(to: at(3), choices: 3)
        #expect(changed1)
        #expect(tally.counts == [0, 0, 0])
        let changed2 = tally.cast(1, at: at(3), choice: 2)
        #expect(changed2)
        let changed3 = tally.cast(2, at: at(3), choice: 2)
        #expect(changed3)
        let changed4 = tally.cast(2, at: at(3), choice: 2)
        #expect(!changed4, "the same vote again changes nothing")
        #expect(tally.counts == [0, 0, 2])
        let changed5 = tally.cast(2, at: at(3), choice: 0)
        #expect(changed5)
        #expect(tally.counts == [1, 0, 1])
        let changed6 = tally.cast(1, at: at(3), choice: nil)
        #expect(changed6)
        #expect(tally.counts == [1, 0, 0])
        let changed7 = tally.remove(2)
        #expect(changed7)
        let changed8 = tally.remove(2)
        #expect(!changed8)
        #expect(tally.votes == SessionVotes(location: at(3), counts: [0, 0, 0]))
    }

    @Test func anotherPageOrAChoiceItHasNotCountsNothing() {
        var tally = VoteTally()
        let changed9 = tally.cast(1, at: at(3), choice: 0)
        #expect(!changed9, "no page yet")
        _ = tally.moved(to: at(3), choices: 2)
        let changed10 = tally.cast(1, at: at(4), choice: 0)
        #expect(!changed10)
        let changed11 = tally.cast(1, at: at(3), choice: 2)
        #expect(!changed11)
        let changed12 = tally.cast(1, at: at(3), choice: -1)
        #expect(!changed12)
        #expect(tally.counts == [0, 0])
    }

    @Test func aNewPageStartsAgainAndTheSamePageKeepsTheCount() {
        var tally = VoteTally()
        _ = tally.moved(to: at(3), choices: 2)
        _ = tally.cast(1, at: at(3), choice: 1)
        let changed13 = tally.moved(to: at(3), choices: 2)
        #expect(!changed13)
        #expect(tally.counts == [0, 1])
        let changed14 = tally.moved(to: at(4), choices: 4)
        #expect(changed14)
        #expect(tally.counts == [0, 0, 0, 0])
        let changed15 = tally.remove(1)
        #expect(!changed15, "the vote of the page before is gone")
        let changed16 = tally.moved(to: at(5), choices: 100_000)
        #expect(changed16)
        #expect(tally.counts.count == SessionVotes.maximumChoices)
    }

    @Test func votesAndAVoteGoOverTheWireAndBadOnesAreRefused() throws {
        let votes = SessionMessage.votes(SessionVotes(location: at(2), counts: [3, 0, 1]))
        #expect(try SessionCodec.decode(SessionCodec.encode(votes)) == votes)
        for vote in [SessionMessage.vote(location: at(2), choice: 1), .vote(location: at(2), choice: nil)] {
            #expect(try SessionCodec.decode(SessionCodec.encode(vote)) == vote)
        }
        var welcome = SessionWelcome(story: SessionStory(id: "s", version: nil, url: "/"), owner: "bob", location: at(2), participants: [], followers: 2)
        #expect(try SessionCodec.decode(SessionCodec.encode(.welcome(welcome))) == .welcome(welcome), "no votes: none said")
        welcome.votes = SessionVotes(location: at(2), counts: [])
        #expect(try SessionCodec.decode(SessionCodec.encode(.welcome(welcome))) == .welcome(welcome), "votes on, a page without choices")
        let location = #"{"beatId":"start","pageId":"p2","lineIndex":0}"#
        #expect(throws: SessionCodec.Problem.malformed("a vote's \"choice\" is negative")) {
            try SessionCodec.decode(#"{"v":1,"type":"vote","choice":-1,"location":\#(location)}"#)
        }
        #expect(throws: SessionCodec.Problem.malformed("a votes message has a negative vote count")) {
            try SessionCodec.decode(#"{"v":1,"type":"votes","votes":[1,-2],"location":\#(location)}"#)
        }
        #expect(throws: SessionCodec.Problem.malformed("a vote message needs \"location\"")) { try SessionCodec.decode(#"{"v":1,"type":"vote","choice":1}"#) }
    }
}
