import Foundation
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Audience votes on a real host with real followers on 127.0.0.1 (`pajama host --votes`): each follower's
/// vote counted once, changeable, gone when it leaves, sent again after a reconnection; the owner told each
/// change, the followers the totals; a new page starts again; a flood of votes closes the socket; a follower
/// of a host without votes sends none (that host closes a socket that says anything after hello).
@Suite(.serialized) struct VotesLoopbackTests {
    static let token = "secret-secret-42"

    /// The owner's votes as last told.
    final class OwnerVotes: Sendable {
        private let latest = Locked<SessionVotes?>(nil)
        private let task = Locked<Task<Void, Never>?>(nil)

        init(_ host: CoReadingHost) {
            let stream = host.voteChanges
            let running = Task { [latest] in for await votes in stream { latest.withLock { $0 = votes } } }
            task.withLock { $0 = running }
        }

        var last: SessionVotes? { latest.withLock { $0 } }

        deinit { task.withLock { $0?.cancel() } }
    }

    @Test func votesAreCountedOnceEachChangeableAndGoneWithTheirFollower() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder, votes: true)
        let owner = OwnerVotes(host)
        let choicePage = at(3)
        await host.publish(choicePage, choices: 3)
        let ballots = (0..<3).map { _ in FollowerBallot() }
        let followers = ["ann", "cy", "dee"].enumerated().map { index, name in
            RecordingFollower(url: host.joinURL, token: Self.token, name: name, ballot: ballots[index])
        }
        #expect(await eventually { followers.allSatisfy { $0.welcomes.count == 1 } })
        #expect(followers[0].welcomes.first?.votes == SessionVotes(location: choicePage, counts: [0, 0, 0]))
        ballots[0].cast(2, at: choicePage)
        ballots[1].cast(2, at: choicePage)
        ballots[2].cast(0, at: choicePage)
        let counted = SessionVotes(location: choicePage, counts: [1, 0, 2])
        #expect(await eventually { owner.last == counted }, "\(String(describing: owner.last))")
        #expect(await eventually { followers.allSatisfy { $0.lastVotes == counted } })
        // A changed vote moves; the same vote again and a choice the page has not change nothing.
        ballots[1].cast(1, at: choicePage)
        ballots[0].cast(2, at: choicePage)
        ballots[2].cast(7, at: choicePage)
        #expect(await eventually { owner.last == SessionVotes(location: choicePage, counts: [1, 1, 1]) })
        // A follower who leaves takes its vote with it.
        followers[2].stop()
        #expect(await eventually { owner.last == SessionVotes(location: choicePage, counts: [0, 1, 1]) })
        #expect(await eventually { followers[0].lastVotes == SessionVotes(location: choicePage, counts: [0, 1, 1]) })
        // Dropped and back: the vote on the page is sent again on the new socket.
        await host.dropConnections()
        #expect(await eventually { followers[0].welcomes.count == 2 && followers[1].welcomes.count == 2 })
        #expect(await eventually { owner.last == SessionVotes(location: choicePage, counts: [0, 1, 1]) })
        // A new page starts again; a late vote for the page before counts nothing there.
        let next = at(4)
        await host.publish(next, choices: 2)
        #expect(await eventually { owner.last == SessionVotes(location: next, counts: [0, 0]) })
        ballots[0].cast(1, at: choicePage)
        ballots[1].cast(0, at: next)
        #expect(await eventually { owner.last == SessionVotes(location: next, counts: [1, 0]) })
        #expect(await eventually { followers[0].lastVotes == SessionVotes(location: next, counts: [1, 0]) })
        let late = RecordingFollower(url: host.joinURL, token: Self.token, name: "late")
        #expect(await eventually { late.welcomes.first?.votes == SessionVotes(location: next, counts: [1, 0]) })
        await host.end()
    }

    @Test func aFloodOfVotesClosesTheSocketAndAFollowerOfAHostWithoutVotesSendsNone() async throws {
        let folder = try HostedFolder()
        let log = Lines()
        let host = try await startHost(folder, limits: HostLimits(votesPerSecond: 5), votes: true, log: { log.append($0) })
        let owner = OwnerVotes(host)
        await host.publish(at(3), choices: 2)
        let ballot = FollowerBallot()
        let flooder = RecordingFollower(url: host.joinURL, token: Self.token, name: "flood", ballot: ballot)
        #expect(await eventually { flooder.welcomes.count == 1 })
        for index in 0..<40 { ballot.cast(index % 2, at: at(3)) }
        #expect(await eventually { log.all.contains { $0.contains("more than 5 votes in a second") && $0.contains("(1008)") } }, "\(log.all)")
        // It reconnects, and its last vote counts once.
        #expect(await eventually { owner.last == SessionVotes(location: at(3), counts: [0, 1]) }, "\(String(describing: owner.last))")
        await host.end()

        let plain = try await startHost(try HostedFolder())
        await plain.publish(at(3), choices: 2)
        let plainBallot = FollowerBallot()
        let voter = RecordingFollower(url: plain.joinURL, token: Self.token, name: "voter", ballot: plainBallot)
        #expect(await eventually { voter.welcomes.count == 1 })
        #expect(voter.welcomes.first?.votes == nil, "a host without --votes says none")
        plainBallot.cast(0, at: at(3))
        await plain.publish(at(4))
        #expect(await eventually { voter.lastLocation == at(4) })
        #expect(!voter.events.contains { if case .reconnecting = $0 { true } else { false } }, "the socket was never closed for a vote")
        #expect(await plain.session.current.votes == nil)
        await plain.end()
    }
}
