import PajamaModel
import Testing
@testable import PajamaCoReading

@Suite struct CoReadingSessionTests {
    static let story = SessionStory(id: "tale", version: "1", url: "/")
    static func at(_ page: Int, line: Int = 0) -> StoryLocation { StoryLocation(beatId: "b", pageId: "p\(page)", lineIndex: line) }

    @Test func noFollowerJoinsBeforeAStoryIsSelected() async {
        let session = CoReadingSession(owner: "bob")
        #expect(await session.join(name: "ann") == nil)
    }

    @Test func aLateJoinerGetsTheCurrentStateAtOnce() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        for page in 1...5 { await session.updateLocation(Self.at(page)) }
        let ann = try #require(await session.join(name: "ann"))
        #expect(ann.outbox.take() == [.welcome(SessionWelcome(story: Self.story, owner: "bob", location: Self.at(5), participants: ["ann"]))])
    }

    @Test func followersSeeMovesInOrderAndParticipantsChange() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        let ann = try #require(await session.join(name: "ann"))
        _ = ann.outbox.take()
        let cy = try #require(await session.join(name: "cy"))
        _ = cy.outbox.take()
        #expect(ann.outbox.take() == [.participants(["ann", "cy"])])
        await session.updateLocation(Self.at(1))
        for follower in [ann, cy] { #expect(follower.outbox.take() == [.location(Self.at(1))]) }
        await session.cue(try AssetPath(validating: "c.ogg"), .choice(0))
        await session.updateLocation(Self.at(2, line: 1))
        await session.updateLocation(Self.at(2, line: 2))
        // In order; of the two moves not yet sent only the latest is left, after the cue that came before it.
        for follower in [ann, cy] {
            #expect(follower.outbox.take() == [.cue(try AssetPath(validating: "c.ogg"), .choice(0)), .location(Self.at(2, line: 2))])
        }
        await session.leave(cy.id)
        #expect(ann.outbox.take() == [.participants(["ann"])])
        #expect(await session.current.participants == ["ann"])
    }

    @Test func rapidMovesCoalesceForAFollowerBehind() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        let ann = try #require(await session.join(name: "ann"))
        _ = ann.outbox.take()
        for page in 1...500 { await session.updateLocation(Self.at(page)) }
        #expect(ann.outbox.take() == [.location(Self.at(500))])
        #expect(await session.current.location == Self.at(500))
    }

    @Test func theSameLocationIsNotSentTwice() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        let ann = try #require(await session.join(name: "ann"))
        await session.updateLocation(Self.at(1))
        _ = ann.outbox.take()
        await session.updateLocation(Self.at(1))
        #expect(ann.outbox.take().isEmpty)
    }

    @Test func endIsEveryonesLastMessageAndClosesTheSession() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        let ann = try #require(await session.join(name: "ann"))
        _ = ann.outbox.take()
        await session.end()
        await session.updateLocation(Self.at(9))
        #expect(ann.outbox.take() == [.end(name: "bob")])
        #expect(await session.join(name: "late") == nil)
        #expect(await session.current.endedBy == "bob")
    }

    @Test func participantChangesReachTheOwner() async throws {
        let session = CoReadingSession(owner: "bob")
        await session.selectStory(Self.story)
        _ = await session.join(name: "ann")
        var changes = session.participantChanges.makeAsyncIterator()
        #expect(await changes.next() == ["ann"])
        await session.end()
        #expect(await changes.next() == nil)
    }

    @Test func aFollowerRebuildsTheStateFromMessages() {
        var state = SessionState(owner: "?")
        state.apply(.welcome(SessionWelcome(story: Self.story, owner: "bob", location: Self.at(1), participants: ["ann"])))
        state.apply(.location(Self.at(2)))
        state.apply(.participants(["ann", "cy"]))
        state.apply(.end(name: "bob"))
        #expect(state == SessionState(story: Self.story, owner: "bob", location: Self.at(2), participants: ["ann", "cy"], endedBy: "bob"))
    }
}
