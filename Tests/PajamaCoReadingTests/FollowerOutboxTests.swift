import PajamaModel
import Testing
@testable import PajamaCoReading

@Suite struct FollowerOutboxTests {
    static func at(_ page: Int) -> StoryLocation { StoryLocation(beatId: "b", pageId: "p\(page)") }
    static let tap = try! AssetPath(validating: "assets/tap.ogg")

    @Test func messagesLeaveInOrder() {
        let outbox = FollowerOutbox()
        outbox.put(.location(Self.at(1)))
        outbox.put(.cue(Self.tap, .tap))
        outbox.put(.participants(["ann"]))
        #expect(outbox.take() == [.location(Self.at(1)), .cue(Self.tap, .tap), .participants(["ann"])])
        #expect(outbox.take().isEmpty)
    }

    @Test func theLatestLocationWinsAndTakesItsPlaceInOrder() {
        let outbox = FollowerOutbox()
        for page in 1...1000 { outbox.put(.location(Self.at(page))) }
        outbox.put(.cue(Self.tap, .choice(0)))
        outbox.put(.location(Self.at(1001)))
        #expect(outbox.take() == [.cue(Self.tap, .choice(0)), .location(Self.at(1001))])
    }

    @Test func aFollowerThatNeverReadsHoldsABoundedOutbox() {
        let outbox = FollowerOutbox()
        for page in 1...10_000 {
            outbox.put(.location(Self.at(page)))
            outbox.put(.cue(try! AssetPath(validating: "s\(page).ogg"), .tap))
            outbox.put(.participants(["n\(page)"]))
        }
        #expect(outbox.count <= FollowerOutbox.cueLimit + 4)
        let taken = outbox.take()
        // The newest cues are kept, and the final location always arrives.
        #expect(taken.contains(.location(Self.at(10_000))))
        #expect(taken.contains(.cue(try! AssetPath(validating: "s10000.ogg"), .tap)))
        #expect(!taken.contains(.cue(try! AssetPath(validating: "s1.ogg"), .tap)))
    }

    @Test func aWelcomeReplacesEverythingBefore() {
        let outbox = FollowerOutbox()
        outbox.put(.location(Self.at(1)))
        let welcome = SessionWelcome(story: SessionStory(id: "s", version: nil, url: "/"), owner: "bob", location: Self.at(2),
                                     participants: [])
        outbox.put(.welcome(welcome))
        #expect(outbox.take() == [.welcome(welcome)])
    }

    @Test func nothingIsAcceptedAfterEnd() {
        let outbox = FollowerOutbox()
        outbox.put(.end(name: "bob"))
        outbox.put(.location(Self.at(1)))
        #expect(outbox.take() == [.end(name: "bob")])
    }
}
