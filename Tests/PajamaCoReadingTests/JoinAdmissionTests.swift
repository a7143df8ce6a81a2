import PajamaModel
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// The owner's turn does not queue behind a crowd joining (issue 26, crowds): hellos wait off the session
/// actor and are admitted a bounded batch at a time, so a turn issued during a storm waits for at most one
/// batch, not for every hello before it. The admission is held with a gate, so nothing here depends on timing.
@Suite struct JoinAdmissionTests {
    static let story = SessionStory(id: "tale", version: "1", url: "/")

    /// What the admission waits at before each batch: `allow(n)` lets n batches through.
    final class Gate: Sendable {
        private struct State {
            var passes: Int
            var held: [CheckedContinuation<Void, Never>] = []
        }

        private let state: Locked<State>

        init(passes: Int) { state = Locked(State(passes: passes)) }

        func pass() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    guard state.passes == 0 else {
                        state.passes -= 1
                        return true
                    }
                    state.held.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func allow(_ passes: Int) {
            let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                let released = Array(state.held.prefix(passes))
                state.held.removeFirst(released.count)
                state.passes += passes - released.count
                return released
            }
            for continuation in released { continuation.resume() }
        }

        /// Whether the admission waits at the gate now.
        var holding: Bool { state.withLock { !$0.held.isEmpty } }
    }

    static func location(_ page: String) -> StoryLocation { StoryLocation(beatId: "hall", pageId: page) }

    /// 300 hellos wait (the gate holds the admission): the owner's turn reaches the follower already in at
    /// once, none of the 300 is admitted meanwhile; the gate lets one batch in, then a second turn, then the
    /// rest: each joiner's welcome has the owner's page of the moment it was admitted.
    @Test func anOwnersTurnDoesNotWaitForTheJoinsWaiting() async throws {
        let gate = Gate(passes: 1)
        let session = CoReadingSession(owner: "bob", participantsDelay: .seconds(3600), admissionGate: { await gate.pass() })
        await session.selectStory(Self.story)
        await session.updateLocation(Self.location("p1"))
        let reference = try #require(await session.join(name: "reference", countOnly: true))
        #expect(reference.outbox.take().count == 1)

        let crowd = 300
        let joins = (0..<crowd).map { index in Task { await session.join(name: "f\(index)", countOnly: true) } }
        #expect(await eventually { session.waitingJoins == crowd && gate.holding })
        await session.updateLocation(Self.location("p2"))
        #expect(reference.outbox.take() == [.location(Self.location("p2"))])
        #expect(session.waitingJoins == crowd)
        #expect(await session.followers.count == 1)

        // One batch in, no more: the next waits at the gate again.
        gate.allow(1)
        #expect(await eventually { session.waitingJoins == crowd - CoReadingSession.joinBatch && gate.holding })
        #expect(await session.followers.count == 1 + CoReadingSession.joinBatch)
        await session.updateLocation(Self.location("p3"))
        #expect(reference.outbox.take() == [.location(Self.location("p3"))])

        gate.allow(.max / 2)
        var welcomedOn: [String: Int] = [:]
        for (index, join) in joins.enumerated() {
            let follower = try #require(await join.value)
            let messages = follower.outbox.take()
            guard case .welcome(let welcome)? = messages.first else {
                Issue.record("f\(index)'s first message was not a welcome: \(messages)")
                continue
            }
            welcomedOn[welcome.location?.pageId ?? "none", default: 0] += 1
            // The first batch, welcomed on the second page, is told the third; the rest are welcomed on it.
            let expected: [SessionMessage] = welcome.location == Self.location("p2") ? [.location(Self.location("p3"))] : []
            #expect(Array(messages.dropFirst()) == expected, "f\(index)")
        }
        #expect(welcomedOn == ["p2": CoReadingSession.joinBatch, "p3": crowd - CoReadingSession.joinBatch])
        #expect(await session.followers.count == crowd + 1)
        #expect(session.waitingJoins == 0)
    }

    /// Joins admitted in batches keep the order they came in (names and ids), and the session's end answers
    /// those still waiting with nil (their sockets are then closed as for a session not open).
    @Test func joinsKeepTheirOrderAndTheEndRefusesThoseWaiting() async throws {
        let gate = Gate(passes: 0)
        let session = CoReadingSession(owner: "bob", participantsDelay: .seconds(3600), admissionGate: { await gate.pass() })
        await session.selectStory(Self.story)
        var joins: [Task<CoReadingSession.Follower?, Never>] = []
        for index in 0..<100 {
            joins.append(Task { await session.join(name: "f\(index)", countOnly: true) })
            // One at a time into the queue, so their order is known.
            #expect(await eventually { session.waitingJoins == index + 1 })
        }
        gate.allow(2)
        #expect(await eventually { session.waitingJoins == 100 - 2 * CoReadingSession.joinBatch && gate.holding })
        #expect(await session.current.participants == (0..<(2 * CoReadingSession.joinBatch)).map { "f\($0)" })
        await session.end()
        for (index, join) in joins.enumerated() {
            let follower = await join.value
            if index < 2 * CoReadingSession.joinBatch {
                #expect(follower?.id == index)
            } else {
                #expect(follower == nil, "f\(index) was admitted after the end")
            }
        }
        #expect(await session.join(name: "late") == nil)
        gate.allow(.max / 2)
    }

    /// A batch's joiners get one welcome, encoded once for all of them (a storm of 2,000 is 2 encodings a
    /// batch, not 2,000 on the event loops): the state once the whole batch joined, every one of them among
    /// the participants (names to those that want names, the count to the others).
    @Test func aBatchsWelcomesAreEncodedOnceForAll() async throws {
        let gate = Gate(passes: 0)
        let session = CoReadingSession(owner: "bob", participantsDelay: .seconds(3600), admissionGate: { await gate.pass() })
        await session.selectStory(Self.story)
        await session.updateLocation(Self.location("p1"))
        var joins: [Task<CoReadingSession.Follower?, Never>] = []
        for index in 0..<6 {
            joins.append(Task { await session.join(name: "f\(index)", countOnly: index % 2 == 0) })
            #expect(await eventually { session.waitingJoins == index + 1 })
        }
        gate.allow(1)
        var welcomes: [FollowerOutbox.Outgoing] = []
        for join in joins { welcomes += try #require(await join.value).outbox.takeEncoded() }
        let names = (0..<6).map { "f\($0)" }
        let full = SessionWelcome(story: Self.story, owner: "bob", location: Self.location("p1"), participants: names)
        #expect(welcomes.map(\.message) == (0..<6).map { $0 % 2 == 0 ? .welcome(full.countOnly) : .welcome(full) })
        // The same bytes, not six encodings of them.
        let buffers = welcomes.map(\.bytes)
        let storage = buffers.map { $0.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(Set(storage).count == 2, "\(Set(storage).count) encodings for 6 welcomes of 2 kinds")
        await session.end()
        gate.allow(.max / 2)
    }
}
