import Foundation
import Logging
import PajamaModel
import PajamaTestSupport
import Testing
import WSClient
@testable import PajamaCoReading

/// Followers are told how many follow, not who (issue 26, crowds): a join storm of n costs the followers
/// O(n) bytes, not n names to each of n; a follower that does not say `countOnly` still gets the names.
@Suite struct CrowdCountTests {
    static let story = SessionStory(id: "tale", version: "1", url: "/")

    /// `n` followers join together; the bytes waiting in their outboxes once the participants change
    /// went out to every one (each outbox keeps only the latest change, so the number of flushes does not
    /// matter, but whether one came after a follower's welcome does: waited for).
    static func stormBytes(_ n: Int, countOnly: Bool) async throws -> (bytes: Int, followers: [CoReadingSession.Follower]) {
        let session = CoReadingSession(owner: "bob", participantsDelay: .milliseconds(10))
        await session.selectStory(Self.story)
        var changes = session.participantChanges.makeAsyncIterator()
        var followers: [CoReadingSession.Follower] = []
        for index in 0..<n { followers.append(try #require(await session.join(name: "follower-\(index)", countOnly: countOnly))) }
        while let names = await changes.next(), names.count < n {}
        // The followers' flush (its own task, after the same delay) has put a change in every outbox.
        let joined = followers
        #expect(await eventually { joined.allSatisfy { $0.outbox.count == 2 } })
        let bytes = followers.reduce(0) { sum, follower in sum + follower.outbox.takeEncoded().reduce(0) { $0 + $1.bytes.readableBytes } }
        return (bytes, followers)
    }

    @Test func aJoinStormCostsTheFollowersLinearBytes() async throws {
        let n = 400
        let (bytes, _) = try await Self.stormBytes(n, countOnly: true)
        // A welcome (the story, the owner, the count) and one count each: well under 300 bytes a follower.
        // The names would be n × n / 2 in the welcomes and n × n in the lists (about 3.6 MB here).
        #expect(bytes < n * 300, "\(bytes) bytes for \(n) followers")
        let (double, _) = try await Self.stormBytes(2 * n, countOnly: true)
        #expect(Double(double) < 2.2 * Double(bytes), "\(bytes) bytes for \(n), \(double) for \(2 * n)")
    }

    /// The owner's status line is told within `participantsDelay`; the followers, who never show the count,
    /// once per `followersDelay` (a message to every follower each time): a storm's count changes cost the
    /// followers one message a second, not ten.
    @Test func followersAreToldTheCountSeldomerThanTheOwner() async throws {
        let session = CoReadingSession(owner: "bob", participantsDelay: .milliseconds(10), followersDelay: .seconds(3600))
        await session.selectStory(Self.story)
        var changes = session.participantChanges.makeAsyncIterator()
        let ann = try #require(await session.join(name: "ann", countOnly: true))
        let old = try #require(await session.join(name: "old"))
        for index in 0..<48 { _ = await session.join(name: "f\(index)", countOnly: true) }
        while let names = await changes.next(), names.count < 50 {}
        // The owner knows all 50; the followers have their welcomes only (their delay has not passed).
        #expect(ann.outbox.take().map(\.type) == ["welcome"])
        #expect(old.outbox.take().map(\.type) == ["welcome"])
        await session.leave(old.id)
        #expect(await session.current.participants == ["ann"] + (0..<48).map { "f\($0)" })

        let soon = CoReadingSession(owner: "bob", participantsDelay: .milliseconds(10), followersDelay: .milliseconds(30))
        await soon.selectStory(Self.story)
        let cy = try #require(await soon.join(name: "cy", countOnly: true))
        _ = cy.outbox.take()
        for index in 0..<20 { _ = await soon.join(name: "g\(index)", countOnly: true) }
        // Told at last (a loaded machine may split the joins over two tellings; the latest wins).
        #expect(await eventually { cy.outbox.take().last == .followers(21) })
    }

    @Test func aCountOnlyFollowerIsToldHowManyAndAnOlderOneWho() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        let ann = try #require(await session.join(name: "ann", countOnly: true))
        #expect(ann.outbox.take() == [.welcome(SessionWelcome(story: Self.story, owner: "bob", location: nil, participants: [], followers: 1))])
        let old = try #require(await session.join(name: "old"))
        #expect(old.outbox.take() == [.welcome(SessionWelcome(story: Self.story, owner: "bob", location: nil, participants: ["ann", "old"]))])
        #expect(ann.outbox.take() == [.followers(2)])
        _ = try #require(await session.join(name: "cy", countOnly: true))
        #expect(ann.outbox.take() == [.followers(3)])
        #expect(old.outbox.take() == [.participants(["ann", "old", "cy"])])
        await session.leave(old.id)
        #expect(ann.outbox.take() == [.followers(2)])
        #expect(await session.current.participants == ["ann", "cy"])
        #expect(await session.current.followers == 2)
        // A new story: a welcome to each in its own form.
        let next = SessionStory(id: "next", version: nil, url: "/")
        let dan = try #require(await session.join(name: "dan"))
        _ = dan.outbox.take()
        _ = ann.outbox.take()
        await session.selectStory(next)
        #expect(ann.outbox.take() == [.welcome(SessionWelcome(story: next, owner: "bob", location: nil, participants: [], followers: 3))])
        #expect(dan.outbox.take() == [.welcome(SessionWelcome(story: next, owner: "bob", location: nil, participants: ["ann", "cy", "dan"]))])
    }

    @Test func theCountsOnTheWire() throws {
        #expect(SessionCodec.encode(.hello(name: "ann", countOnly: true)) == #"{"countOnly":true,"name":"ann","type":"hello","v":1}"#)
        #expect(SessionCodec.encode(.hello(name: "ann")) == #"{"name":"ann","type":"hello","v":1}"#)
        #expect(SessionCodec.encode(.followers(2000)) == #"{"followers":2000,"type":"followers","v":1}"#)
        let counted = SessionCodec.encode(.welcome(SessionWelcome(story: Self.story, owner: "bob", location: nil, participants: [], followers: 7)))
        #expect(counted.contains(#""followers":7"#) && !counted.contains("participants"))
        // What an older host sends: the names, whose number is the count.
        let older = #"{"v":1,"type":"welcome","story":{"id":"tale","url":"/"},"owner":"bob","participants":["a","b"]}"#
        #expect(try SessionCodec.decode(older) == .welcome(SessionWelcome(
            story: SessionStory(id: "tale", version: nil, url: "/"), owner: "bob", location: nil, participants: ["a", "b"], followers: 2)))
        #expect(try SessionCodec.decode(#"{"v":1,"type":"hello","name":"x"}"#) == .hello(name: "x", countOnly: false))
        #expect(throws: SessionCodec.Problem.malformed(#"a followers message's "followers" is negative"#)) {
            try SessionCodec.decode(#"{"v":1,"type":"followers","followers":-1}"#)
        }
        #expect(throws: SessionCodec.Problem.malformed(#"a followers message needs "followers""#)) {
            try SessionCodec.decode(#"{"v":1,"type":"followers"}"#)
        }
        var state = SessionState(owner: "bob")
        state.apply(.followers(4))
        #expect(state.followers == 4 && state.participants.isEmpty)
    }
}

/// A real host on 127.0.0.1: today's followers get counts; a socket that says hello as older readers did
/// gets the names.
@Suite(.serialized) struct CrowdCountLoopbackTests {
    /// A raw follower socket: says `hello`, records the texts it gets until cancelled.
    final class RawFollower: Sendable {
        let texts = Locked<[String]>([])
        private let task = Locked<Task<Void, Never>?>(nil)

        init(url: String, hello: SessionMessage) {
            let texts = texts
            task.withLock {
                $0 = Task {
                    var headers = WebSocketClientConfiguration().additionalHeaders
                    headers[.authorization] = "Bearer secret-secret-42"
                    _ = try? await WebSocketClient.connect(
                        url: url + "session", configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers),
                        logger: Logger(label: "raw", factory: { _ in SwiftLogNoOpLogHandler() })
                    ) { inbound, outbound, _ in
                        try await outbound.write(.text(SessionCodec.encode(hello)))
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { texts.withLock { $0.append(text) } }
                        }
                    }
                }
            }
        }

        var messages: [SessionMessage] { texts.withLock { $0 }.compactMap { try? SessionCodec.decode($0) } }
        func stop() { task.withLock { $0?.cancel() } }
    }

    @Test func followersAreToldHowManyFollowAndOlderFollowersWho() async throws {
        let folder = try HostedFolder()
        let host = try await startHost(folder)
        let older = RawFollower(url: host.joinURL, hello: .hello(name: "old"))
        defer { older.stop() }
        #expect(await eventually { await host.session.current.participants == ["old"] })
        let raw = RawFollower(url: host.joinURL, hello: .hello(name: "raw", countOnly: true))
        defer { raw.stop() }
        #expect(await eventually { await host.session.current.participants.count == 2 })
        let ann = RecordingFollower(url: host.joinURL, token: "secret-secret-42", name: "ann")
        #expect(await eventually { await host.session.current.participants.count == 3 })
        #expect(await eventually { ann.events.contains(.followers(3)) || ann.welcomes.last?.followers == 3 })
        #expect(await eventually { raw.messages.last == .followers(3) })
        #expect(await eventually {
            if case .participants(let names)? = older.messages.last { names.sorted() == ["ann", "old", "raw"] } else { false }
        })
        // The count-only socket never got a name.
        #expect(!raw.texts.withLock { $0 }.contains { $0.contains("participants") || $0.contains("\"old\"") })
        if case .welcome(let welcome)? = raw.messages.first {
            #expect(welcome.participants.isEmpty && welcome.followers == 2)
        } else {
            Issue.record("the first message was not a welcome: \(raw.texts.withLock { $0 })")
        }
        await host.end()
    }
}
