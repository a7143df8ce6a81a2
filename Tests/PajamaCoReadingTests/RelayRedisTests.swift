import Foundation
import PajamaBasics
import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Two real relay nodes (nginx + nchan on 127.0.0.1) sharing one real Redis (redis-server on 127.0.0.1), all
/// started by the test: the owner's host publishes through node A, followers on both nodes follow every move,
/// a late joiner on node B lands on the current page, and the owner counts both nodes' followers. And a node
/// says it is up only once nchan's link to Redis is: before, nchan refused every follower (503 to the
/// WebSocket, 403 to the follower's plain GET asking why), and a follower joining then gave up.
@Suite(.serialized) struct RelayRedisTests {
    @Test func aNodeSaysItIsUpOnlyOnceItsRedisLinkIs() async throws {
        let redisPort = freeLoopbackPort()
        let (node, base) = try RelayTests.node(port: freeLoopbackPort(), redis: "redis://127.0.0.1:\(redisPort)")
        let redisStarted = Locked(false)
        let redis = Locked<PrivateRedis?>(nil)
        do {
            // The node starts before its Redis: nginx listens, nchan cannot reach Redis yet.
            let starting = Task { () -> Bool in
                try await node.start(patience: .seconds(60))  // a guard against a hang only
                return redisStarted.withLock { $0 }
            }
            #expect(await eventually(timeout: .seconds(20)) { acceptsConnections(host: "127.0.0.1", port: base.port!) || node.endedHow != nil })
            redisStarted.withLock { $0 = true }
            let server = try await PrivateRedis.start(port: redisPort)
            redis.withLock { $0 = server }
            // start() returned only after Redis was there (before, it returned once nginx listened)...
            #expect(try await starting.value, "the node said it was up before its Redis ran")
            // ...and nchan answers at once: the owner publishes, a follower subscribes.
            let (status, said) = try await RelayTests.request("\(base)\(RelayConfiguration.publishPath)", method: .POST,
                                                               authorization: "Bearer \(RelayTests.secret)", body: #"{"v":1,"type":"location"}"#)
            #expect((200..<300).contains(status), "\(status) \(said)")
            #expect(try await withDeadline(.seconds(20)) { try await RelayTests.firstEvent("\(base)/session?token=\(RelayTests.token)") }
                    == #"{"v":1,"type":"location"}"#)
        } catch {
            await node.stop()
            redis.withLock { $0 }?.stop()
            throw error
        }
        await node.stop()
        redis.withLock { $0 }?.stop()
    }

    @Test func aNodeThatCannotReachItsRedisSaysSo() async throws {
        let (node, _) = try RelayTests.node(port: freeLoopbackPort(), redis: "redis://127.0.0.1:\(freeLoopbackPort())")
        try await RelayTests.running([node]) {
            var said = ""
            do { try await node.start(patience: .seconds(2)) } catch { said = "\(error)" }
            #expect(said.contains("nchan did not reach Redis at redis://127.0.0.1:"), "\(said)")
            #expect(said.contains("connection failed") || said.contains("no reachable"), "\(said)")
            #expect(node.endedHow != nil)
        }
    }

    @Test func twoNodesSharingARedisCarryOneSession() async throws {
        let redis = try await PrivateRedis.start()
        let (host, lines, port, _) = try await RelayHostTests.owner()
        let urlA = "http://127.0.0.1:\(port)/"
        let (nodeA, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL), redis: redis.url)
        let (nodeB, baseB) = try RelayTests.node(port: freeLoopbackPort(), origin: URL(string: host.joinURL), redis: redis.url)
        let urlB = "\(baseB)/"
        try await RelayTests.running([nodeA, nodeB], redis: redis) {
            try await nodeA.start()
            let ann = RecordingFollower(url: urlA, token: RelayTests.token, name: "ann")
            try #require(await eventually { ann.welcomes.count >= 1 || ann.failure != nil } && ann.failure == nil,
                         "\(ann.events.suffix(3)) \(lines.all)")
            // A follower joins node B as soon as it is up: the session is there, from Redis.
            try await nodeB.start()
            let cy = RecordingFollower(url: urlB, token: RelayTests.token, name: "cy")
            try #require(await eventually { cy.welcomes.count >= 1 || cy.failure != nil } && cy.failure == nil, "\(cy.events.suffix(3))")
            #expect(cy.welcomes.first?.story == SessionStory(id: "shared", version: "2", url: "/"))
            #expect(cy.welcomes.first?.owner == "bob")
            // Each move, published through A, reaches the followers of both nodes before the next.
            for line in 0..<10 {
                let move = at(line % 2 + 1, line: line)
                await host.publish(move)
                try #require(await eventually { ann.lastLocation == move && cy.lastLocation == move },
                             "move \(line): \(ann.events.suffix(2)) \(cy.events.suffix(2))")
            }
            // A burst: the last always, and in order, on both nodes.
            let burst = (10..<60).map { at($0 % 2 + 1, line: $0) }
            for move in burst { await host.publish(move) }
            for follower in [ann, cy] {
                #expect(await eventually { follower.lastLocation == burst.last }, "\(follower.events.suffix(3))")
                let indices = follower.locations.compactMap { burst.firstIndex(of: $0) }
                #expect(indices == indices.sorted())
            }
            // A late joiner on node B lands on the owner's page (after the earlier states B may still hold, in order).
            let late = RecordingFollower(url: urlB, token: RelayTests.token, name: "late")
            #expect(await eventually { late.lastLocation == burst.last }, "\(late.events.suffix(3))")
            let lateIndices = late.locations.compactMap { burst.firstIndex(of: $0) }
            #expect(lateIndices == lateIndices.sorted())
            // The owner, asking node A, counts the followers of both nodes.
            #expect(await eventually(timeout: .seconds(15)) { host.relay?.following == 3 }, "\(String(describing: host.relay?.following))")
            // The end reaches every follower, on both nodes.
            await host.end()
            for follower in [ann, cy, late] {
                #expect(await eventually { follower.events.contains(.ended(owner: "bob")) }, "\(follower.events.suffix(3))")
                #expect(follower.failure == nil, "\(String(describing: follower.failure))")
            }
            #expect(nodeA.endedHow == nil && nodeB.endedHow == nil)
        }
    }

    /// A node whose Redis goes away after it started: nchan refuses its followers (503) until the link is back.
    /// A follower joining then, or one cut off, keeps trying (it heard 503 as a 403 to its plain GET asking
    /// why, "not a co-reading session", and gave up), and lands on the owner's page once Redis is back.
    @Test func followersOfANodeWhoseRedisWentAwayCarryOnWhenItIsBack() async throws {
        let first = try await PrivateRedis.start()
        let redisPort = first.port
        let (host, lines, port, _) = try await RelayHostTests.owner()
        let url = "http://127.0.0.1:\(port)/"
        let (node, _) = try RelayTests.node(port: port, origin: URL(string: host.joinURL), redis: first.url)
        try await RelayTests.running([node]) {
            try await node.start()
            let ann = RecordingFollower(url: url, token: RelayTests.token, name: "ann")
            try #require(await eventually { ann.welcomes.count >= 1 || ann.failure != nil } && ann.failure == nil,
                         "\(ann.events.suffix(3)) \(lines.all)")
            await host.publish(at(1, line: 1))
            try #require(await eventually { ann.lastLocation == at(1, line: 1) }, "\(ann.events.suffix(3))")
            first.stop()
            // While Redis is away, a follower joins: the node refuses it for now, and it keeps trying.
            let late = RecordingFollower(url: url, token: RelayTests.token, name: "late")
            #expect(await eventually(timeout: .seconds(20)) {
                late.failure != nil || late.events.contains { if case .reconnecting = $0 { true } else { false } }
            }, "\(late.events.suffix(3))")
            #expect(late.failure == nil, "\(String(describing: late.failure))")
            await host.publish(at(2, line: 2))
            // Redis is back (empty: it saves nothing): the owner's watcher publishes the page again.
            let second = try await PrivateRedis.start(port: redisPort)
            for follower in [ann, late] {
                #expect(await eventually(timeout: .seconds(30)) { follower.lastLocation == at(2, line: 2) || follower.failure != nil },
                        "\(follower.events.suffix(3)) \(lines.all)")
                #expect(follower.failure == nil, "\(String(describing: follower.failure))")
            }
            await host.publish(at(1, line: 3))
            for follower in [ann, late] {
                #expect(await eventually { follower.lastLocation == at(1, line: 3) }, "\(follower.events.suffix(3))")
            }
            await host.end()
            second.stop()
        }
    }
}
