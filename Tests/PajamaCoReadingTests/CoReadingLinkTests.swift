import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaTestSupport
import Testing

@testable import PajamaCoReading

/// The reader's co-reading wiring, without a network: `OwnerLink` over a test session (`OwnerSession.test()`)
/// and `FollowerLink` over a stream of the connection's events, each with a real `ReaderViewModel` over a
/// story folder. The loopback tests drive the real host and connection.
@MainActor @Suite struct CoReadingLinkTests {
    static let one = StoryLocation(beatId: "walk", pageId: "one")
    static let two = StoryLocation(beatId: "walk", pageId: "two")

    func story() async throws -> (TemporaryDirectory, StoryContentManager) {
        let dir = try TemporaryDirectory(prefix: "pajama-links")
        try dir.write("story.json", #"{"format":1,"id":"linked","title":"Linked","startBeatId":"walk"}"#)
        try dir.write("beats/walk.json", """
            {"id":"walk","pages":[
              {"id":"one","type":"text","lines":["Page one."]},
              {"id":"two","type":"text","lines":["Page two."]}]}
            """)
        let content = try await StoryContentManager.open(
            source: FolderStorySource(folder: dir.path), diskCache: nil, decodeImage: { _, _ in .textArt(lines: []) }, sound: nil)
        return (dir, content)
    }

    @Test func theOwnersLocationIsPublishedOncePerPageShownAndTheFollowersAreHanded() async throws {
        let (dir, content) = try await story()
        defer { dir.remove() }
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        let (session, told, followers) = OwnerSession.test()
        let (names, namesInput) = AsyncStream<[String]>.makeStream()
        let link = OwnerLink(session: session, viewModel: vm) { namesInput.yield($0) }
        defer { link.close() }
        await vm.start(at: nil)
        await vm.changePage(.advance)
        await vm.changePage(.back)
        await vm.changePage(.advance)
        // Each page shown once, in order: a second publication of any page would shift the rest.
        var tellings = told.makeAsyncIterator()
        for expected in [Self.one, Self.two, Self.one, Self.two] {
            #expect(await tellings.next() == .location(expected))
        }
        followers.yield(["ann", "cy"])
        var handed = names.makeAsyncIterator()
        #expect(await handed.next() == ["ann", "cy"])
    }

    @Test func theFollowerGoesWhereTheOwnerIsAndIsToldWhoFollowsAndWhenItEnds() async throws {
        let (dir, content) = try await story()
        defer { dir.remove() }
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        var states = vm.events().makeAsyncIterator()
        await vm.start(at: Self.one)
        let (events, owner) = AsyncStream<FollowerEvent>.makeStream()
        let (changes, changed) = AsyncStream<FollowerLink.Change>.makeStream()
        let link = FollowerLink(events: events.makeAsyncIterator(), viewModel: vm, storyId: "linked") { changed.yield($0) }
        defer { link.close() }
        var told = changes.makeAsyncIterator()
        owner.yield(.followers(1))
        #expect(await told.next() == .followers(1))
        owner.yield(.location(Self.two))
        while let event = await states.next() {
            if case .stateChanged(.page(let page)) = event, page.location.pageId == "two" { break }
        }
        #expect(vm.location?.pageId == "two")
        owner.yield(.ended(owner: "Olive"))
        #expect(await told.next() == .ended(owner: "Olive"))
    }

    /// Owner and follower count pages the same way: a revealed line is the same page (no page read added,
    /// no page entered again) on both screens. Before, the follower entered the page anew for each line.
    @Test func ownerAndFollowerCountPagesTheSameWayWhenLinesAreRevealed() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-links")
        defer { dir.remove() }
        try dir.write("story.json", #"{"format":1,"id":"lines","title":"Lines","startBeatId":"walk"}"#)
        try dir.write("beats/walk.json", """
            {"id":"walk","pages":[
              {"id":"one","type":"text","lines":["First.","Second.","Third."]},
              {"id":"two","type":"text","lines":["Page two.","More."]},
              {"id":"three","type":"text","lines":["Page three."]},
              {"id":"four","type":"text","lines":["Page four."]},
              {"id":"five","type":"text","lines":["Page five."]},
              {"id":"six","type":"text","lines":["The end."]}]}
            """)
        func open() async throws -> ReaderViewModel {
            let content = try await StoryContentManager.open(
                source: FolderStorySource(folder: dir.path), diskCache: nil, decodeImage: { _, _ in .textArt(lines: []) }, sound: nil)
            return ReaderViewModel(content: content, sound: nil, progress: nil)
        }
        let owner = try await open()
        let follower = try await open()
        var entered = follower.events().makeAsyncIterator()
        await owner.start(at: nil)
        await follower.start(at: owner.location)
        // The owner reveals two lines, turns the page, reveals one, turns again; the follower follows each place.
        for _ in 0..<5 {
            await owner.changePage(.advance)
            let here = try #require(owner.location)
            #expect(await follower.follow(here, sync: nil) == .inStep)
        }
        guard case .page(let owned) = owner.state, case .page(let followed) = follower.state else {
            Issue.record("both on a page: \(owner.state), \(follower.state)")
            return
        }
        #expect(owned.location.pageId != "one", "the owner turned pages")
        #expect(followed.location == owned.location)
        #expect(followed.standing.pagesRead == owned.standing.pagesRead, "the follower counted revealed lines as pages")
        // As many pages entered on the follower's side (page_enter sounds play on entering, once a page).
        var pagesEntered = 0
        while let event = await entered.next() {
            guard case .pageEntered(let at) = event else { continue }
            pagesEntered += 1
            if at.beatId == owned.location.beatId && at.pageId == owned.location.pageId { break }
        }
        #expect(pagesEntered == owned.standing.pagesRead)
    }

    @Test func aWelcomeToAnotherStoryStopsFollowing() async throws {
        let (dir, content) = try await story()
        defer { dir.remove() }
        let vm = ReaderViewModel(content: content, sound: nil, progress: nil)
        await vm.start(at: Self.one)
        let (events, owner) = AsyncStream<FollowerEvent>.makeStream()
        let (changes, changed) = AsyncStream<FollowerLink.Change>.makeStream()
        let link = FollowerLink(events: events.makeAsyncIterator(), viewModel: vm, storyId: "linked") { changed.yield($0) }
        defer { link.close() }
        let other = SessionWelcome(story: SessionStory(id: "other", version: nil, url: "/"), owner: "Olive", location: nil, participants: [])
        owner.yield(.welcome(other, storyURL: URL(string: "http://127.0.0.1:1/")!))
        var told = changes.makeAsyncIterator()
        #expect(await told.next() == .failed("the host now reads another story (other); reading on alone"))
    }
}
