import AsyncHTTPClient
import Foundation
import NIOCore
import PajamaHTTP
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// A real owner's host publishing through a real relay node (nginx + nchan on 127.0.0.1, started by the
/// test), and real followers (`FollowerConnection`) on the node: every move reaches them, in order; a late
/// joiner lands on the current page; the story's files come through the node's cache, once.
@Suite(.serialized) struct RelayHostTests {
    /// The owner's host (bob, a hosted folder of story "shared" version 2) publishing to a node to be started
    /// on `port`, started; its log lines.
    static func owner(votes: Bool = false) async throws -> (CoReadingHost, Lines, port: Int, HostedFolder) {
        let folder = try HostedFolder()
        let lines = Lines()
        let port = freeLoopbackPort()
        let host = CoReadingHost(
            content: .folder(folder.dir.url), storyId: "shared", storyVersion: "2",
            configuration: .init(port: 0, ownerName: "bob",
                                 relay: .init(url: URL(string: "http://127.0.0.1:\(port)/")!, secret: RelayTests.secret), votes: votes),
            token: RelayTests.token, log: { lines.append($0) })
        _ = try await host.start()
        return (host, lines, port, folder)
    }

    @Test func followersOnANodeFollowEveryMoveAndALateJoinerLandsOnTheCurrentPage() async throws {
        let (host, lines, port, _) = try await Self.owner()
        let nodeURL = "http://127.0.0.1:\(port)/"
        #expect(host.joinCommand == "PAJAMA_TOKEN=\(RelayTests.token) pajama join \(nodeURL)")
        // The node starts after the host: the owner's first welcome waits for it (tried again until it is up).
        let (node, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL))
        try await RelayTests.running([node]) {
            try await node.start()
            let ann = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "ann")
            let cy = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "cy")
            #expect(await eventually { ann.welcomes.count >= 1 && cy.welcomes.count >= 1 })
            #expect(ann.welcomes.first?.story == SessionStory(id: "shared", version: "2", url: "/"))
            #expect(ann.welcomes.first?.owner == "bob")
            // Each move reaches both followers before the next.
            for line in 0..<10 {
                let move = at(line % 2 + 1, line: line)
                await host.publish(move)
                #expect(await eventually { ann.lastLocation == move && cy.lastLocation == move }, "move \(line)")
            }
            // A burst: the last always, and in order (newer welcomes replace those not yet sent).
            let burst = (10..<110).map { at($0 % 2 + 1, line: $0) }
            for move in burst { await host.publish(move) }
            for follower in [ann, cy] {
                #expect(await eventually { follower.lastLocation == burst.last })
                let indices = follower.locations.compactMap { burst.firstIndex(of: $0) }
                #expect(indices == indices.sorted())
            }
            // A cue reaches them, and the node's newest message is still the whole state.
            let tap = try AssetPath(validating: "assets/tap.txt")
            await host.cue(tap, .tap)
            #expect(await eventually(timeout: .seconds(15)) { ann.events.contains(.cue(tap, .tap)) && cy.events.contains(.cue(tap, .tap)) },
                    "\(ann.events.suffix(3)) \(lines.all)")
            let late = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "late")
            #expect(await eventually { late.welcomes.count >= 1 })
            #expect(late.welcomes.first?.location == burst.last)
            #expect(!late.events.contains(.cue(tap, .tap)))
            // The owner is told how many follow on the node.
            #expect(await eventually(timeout: .seconds(15)) { host.relay?.following == 3 }, "\(String(describing: host.relay?.following)) \(lines.all)")
            // The story's files, through the node: fetched from the host once, then from the node's cache.
            let first = try await RelayTests.response("\(nodeURL)story.json?token=\(RelayTests.token)")
            #expect(first.status == 200 && first.body.contains("\"shared\""))
            #expect(first.cache == "MISS")
            let again = try await RelayTests.response("\(nodeURL)story.json", authorization: "Bearer \(RelayTests.token)")
            #expect(again.status == 200 && again.cache == "HIT")
            #expect(try await RelayTests.response("\(nodeURL)story.json?token=wrong-token-0123456789").status == 401)
            // The end reaches every follower.
            await host.end()
            for follower in [ann, cy, late] {
                #expect(await eventually { follower.events.contains(.ended(owner: "bob")) })
            }
        }
    }

    /// A node killed (SIGKILL, as a crash) and started again on its port, without Redis: it has lost the
    /// channel, so the owner's host sends it the current welcome again; its follower reconnects and lands where
    /// the owner is (a move made while the node was down included), then follows on.
    @Test func aNodeKilledAndStartedAgainIsFollowedOnWhereTheOwnerIs() async throws {
        let (host, lines, port, _) = try await Self.owner()
        let nodeURL = "http://127.0.0.1:\(port)/"
        let (first, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL))
        let (second, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL))
        try await RelayTests.running([first, second]) {
            try await first.start()
            let ann = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "ann")
            await host.publish(at(1, line: 0))
            #expect(await eventually { ann.lastLocation == at(1, line: 0) }, "\(ann.events.suffix(3)) \(lines.all)")
            await first.kill9()
            _ = await first.waitUntilEnded()
            await host.publish(at(2, line: 1))  // while no node runs
            try await second.start()
            #expect(await eventually(timeout: .seconds(30)) { ann.lastLocation == at(2, line: 1) }, "\(ann.events.suffix(4)) \(lines.all)")
            #expect(ann.events.contains { if case .reconnecting = $0 { true } else { false } }, "\(ann.events)")
            await host.publish(at(1, line: 2))
            #expect(await eventually { ann.lastLocation == at(1, line: 2) }, "\(ann.events.suffix(3))")
            #expect(!ann.events.contains { if case .failed = $0 { true } else { false } }, "\(ann.events)")
            await host.end()
            #expect(await eventually { ann.events.contains(.ended(owner: "bob")) })
        }
    }

    /// Audience votes through a relay node: followers there vote (an HTTP POST the node proxies to the owner's
    /// host with the token), the owner is told the count, and the node carries the totals to its followers in
    /// the whole state it keeps; a vote with a wrong token is refused at the node, one without a voter at the
    /// host, and voters past the node's count of followers push out the oldest.
    @Test func followersAtANodeVoteAndEveryoneThereSeesTheTotals() async throws {
        let (host, lines, port, _) = try await Self.owner(votes: true)
        let nodeURL = "http://127.0.0.1:\(port)/"
        let (node, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL))
        try await RelayTests.running([node]) {
            try await node.start()
            let owner = VotesLoopbackTests.OwnerVotes(host)
            let page = at(3)
            await host.publish(page, choices: 3)
            let ballots = [FollowerBallot(), FollowerBallot()]
            let ann = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "ann", ballot: ballots[0])
            let cy = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "cy", ballot: ballots[1])
            #expect(await eventually { ann.lastVotes?.location == page && cy.lastVotes?.location == page }, "\(ann.events.suffix(3)) \(lines.all)")
            #expect(await eventually(timeout: .seconds(15)) { host.relay?.following == 2 }, "the cap on voters is the node's followers")
            ballots[0].cast(2, at: page)
            ballots[1].cast(2, at: page)
            #expect(await eventually { owner.last == SessionVotes(location: page, counts: [0, 0, 2]) }, "\(String(describing: owner.last)) \(lines.all)")
            #expect(await eventually { ann.lastVotes == SessionVotes(location: page, counts: [0, 0, 2]) && cy.lastVotes == ann.lastVotes },
                    "\(String(describing: ann.lastVotes))")
            ballots[1].cast(0, at: page)
            #expect(await eventually { cy.lastVotes == SessionVotes(location: page, counts: [1, 0, 1]) })
            // A late joiner at the node gets the totals with the owner's page.
            let late = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "late")
            #expect(await eventually { late.welcomes.last?.votes == SessionVotes(location: page, counts: [1, 0, 1]) })
            // Refused: a wrong token at the node, a vote naming no voter at the host.
            let vote = SessionCodec.encode(.vote(location: page, choice: 1))
            let (wrong, _) = try await RelayTests.request(nodeURL + "session/vote", method: .POST, authorization: "Bearer wrong-token-0123456789", body: vote)
            #expect(wrong == 401)
            let (nameless, said) = try await RelayTests.request(nodeURL + "session/vote", method: .POST, authorization: "Bearer \(RelayTests.token)", body: vote)
            #expect(nameless == 400 && said.contains("names its voter"), "\(nameless) \(said)")
            let (got, _) = try await RelayTests.request(nodeURL + "session/vote", authorization: "Bearer \(RelayTests.token)")
            #expect(got == 403 || got == 405, "a vote is a POST: \(got)")
            // Made-up voters: no more count than the node has followers (3 now), the oldest giving way.
            #expect(await eventually(timeout: .seconds(15)) { host.relay?.following == 3 })
            for voter in 0..<5 {
                var request = HTTPClientRequest(url: nodeURL + "session/vote")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(RelayTests.token)")
                request.headers.add(name: "X-Pajama-Voter", value: "feed0000000000\(voter)0")
                request.body = .bytes(ByteBuffer(string: vote))
                let response = try await HTTPStorySource.defaultClient.execute(request, timeout: .seconds(5))
                #expect(response.status.code == 204)
            }
            #expect(await eventually { owner.last.map { $0.total } == 3 && owner.last?.counts[1] == 3 }, "\(String(describing: owner.last))")
            await host.end()
        }
    }

    /// A vote the node cannot pass on (its way to the owner's host fails: 502) is sent again, three times in
    /// all, and no more; before, it was sent once and lost until the follower's next key.
    @Test func aVoteTheNodeCouldNotPassOnIsSentAgain() async throws {
        let (host, lines, port, _) = try await Self.owner(votes: true)
        let nodeURL = "http://127.0.0.1:\(port)/"
        // The node's origin is a port where nothing answers: the owner publishes, but no vote gets through.
        let nowhere = try ClosedPort()
        defer { nowhere.close() }
        let (node, _) = try RelayTests.node(port: port, origin: URL(string: "http://127.0.0.1:\(nowhere.port)/"))
        try await RelayTests.running([node]) {
            try await node.start()
            let page = at(3)
            await host.publish(page, choices: 3)
            let ballot = FollowerBallot()
            let ann = RecordingFollower(url: nodeURL, token: RelayTests.token, name: "ann", ballot: ballot)
            #expect(await eventually { ann.lastVotes?.location == page }, "\(ann.events.suffix(3)) \(lines.all)")
            ballot.cast(1, at: page)
            func tries() -> Int {
                let log = (try? String(contentsOfFile: node.configuration.errorLog, encoding: .utf8)) ?? ""
                return log.split(separator: "\n").filter { $0.contains("POST /session/vote") }.count
            }
            #expect(await eventually { tries() >= FollowerConnection.voteAttempts }, "\(tries()) tries")
            // The third was the last: a vote cast again (the next key) is the next to go.
            ballot.cast(2, at: page)
            #expect(await eventually { tries() >= 2 * FollowerConnection.voteAttempts }, "\(tries()) tries")
            #expect(tries() == 2 * FollowerConnection.voteAttempts)
            await host.end()
        }
    }
}
