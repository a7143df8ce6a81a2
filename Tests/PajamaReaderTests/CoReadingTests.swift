import Foundation
import PajamaCoReading
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// `pajama host` and `pajama join` in process (docs/coreading.md): the owner's reading (`ReaderApp.runHost`)
/// and its followers' (`runFollower`) each on a headless terminal with a home of its own (cache, progress),
/// on 127.0.0.1. A late follower lands on the owner's page, a follower reads on to every beat once the host
/// is gone, and ink and Twine stories are followed. The binary's own co-reading (two followers in their own
/// terminals, the owner quitting, a killed follower, a wrong token, the quit signals) stays in
/// EndToEndTests.CoReadingEndToEndTests.
@MainActor @Suite struct CoReadingTests {
    static let token = "e2e-token-0123456789"

    /// start: two text pages, then a choice (left | right); left: a page and a second choice (up | down).
    static func story(in home: TemporaryDirectory) throws -> String {
        try home.write("story/story.json", """
        {"format":1,"id":"together","title":"Together","version":"1","startBeatId":"start"}
        """)
        try home.write("story/beats/start.json", """
        {"id":"start","pages":[
          {"id":"one","type":"text","lines":["Walk page one."]},
          {"id":"two","type":"text","lines":["Walk page two."]},
          {"id":"fork","type":"choice","prompt":"Which way now?",
           "choices":[{"text":"Left path","targetBeatId":"left"},{"text":"Right path","targetBeatId":"right"}]}]}
        """)
        try home.write("story/beats/left.json", """
        {"id":"left","pages":[
          {"id":"l1","type":"text","lines":["The left path page."]},
          {"id":"hill","type":"choice","prompt":"Up or down?",
           "choices":[{"text":"Up the hill","targetBeatId":"up"},{"text":"Down the hill","targetBeatId":"down"}]}]}
        """)
        for (beat, text) in [("right", "The right path page."), ("up", "The hilltop page."), ("down", "The valley page.")] {
            try home.write("story/beats/\(beat).json", """
            {"id":"\(beat)","pages":[{"id":"p","type":"text","lines":["\(text)"]}]}
            """)
        }
        return home.url.appendingPathComponent("story").path
    }

    /// Homes of their own for each reader of a test, removed together.
    final class Homes {
        private(set) var all: [TemporaryDirectory] = []
        func make(_ name: String) throws -> TemporaryDirectory {
            let home = try TemporaryDirectory(prefix: "pajama-coread-\(name)")
            all.append(home)
            return home
        }
        func remove() { all.forEach { $0.remove() } }
    }

    /// The followers quit, then the owner (nobody left to serve: its host ends at once); each exits 0.
    func quit(_ followers: [HeadlessReading], owner: HeadlessReading) async {
        for follower in followers { #expect(await follower.quit() == 0, "\(follower.stderr)") }
        #expect(await owner.quit() == 0, "\(owner.stderr)")
    }

    @Test func aLateFollowerLandsOnTheCurrentPage() async throws {
        let homes = Homes()
        defer { homes.remove() }
        let ownerHome = try homes.make("owner")
        let owner = HeadlessReading.host(try Self.story(in: ownerHome), token: Self.token, home: ownerHome)
        try await owner.waitFor("Walk page one.")
        let url = try await owner.joinURL()
        try await owner.press(.character(" "), thenWaitFor: "Walk page two.")
        try await owner.press(.character(" "), thenWaitFor: "Which way now?")
        try await owner.type("2", thenWaitFor: "The right path page.")
        let late = HeadlessReading.join(url, token: Self.token, home: try homes.make("late"), name: "late")
        let screen = try await late.waitFor("The right path page.")
        #expect(!screen.contains("Walk page one."))
        await quit([late], owner: owner)
    }

    /// A follower fetches the whole story in the background while it follows: with the host gone (ended:
    /// nothing is served any more), it reads on to a beat far past what its reader preloaded.
    @Test func aFollowerReadsOnToEveryBeatWhenTheHostIsGone() async throws {
        let homes = Homes()
        defer { homes.remove() }
        let storyHome = try homes.make("story")
        let folder = try Self.story(in: storyHome)
        // Down the hill: eight beats more, one after the other, past the reader's preload window.
        try storyHome.write("story/beats/down.json", """
        {"id":"down","pages":[{"id":"p","type":"text","lines":["The valley page."]}],"nextBeatId":"d1"}
        """)
        for index in 1...8 {
            let next = index < 8 ? #","nextBeatId":"d\#(index + 1)""# : ""
            try storyHome.write("story/beats/d\(index).json", """
            {"id":"d\(index)","pages":[{"id":"p","type":"text","lines":["Deeper, step \(index)."]}]\(next)}
            """)
        }
        // The owner's side alone (its reading is not what this is about): the host the owner's reading would start.
        let host = CoReadingHost(content: .folder(URL(fileURLWithPath: folder)), storyId: "together", storyVersion: "1",
                                 configuration: .init(port: 0, ownerName: "Olive"), token: Self.token, log: { _ in })
        _ = try await host.start()
        let annHome = try homes.make("ann")
        let ann = HeadlessReading.join(host.joinURL, token: Self.token, home: annHome)
        try await ann.waitFor("Walk page one.")
        // Every beat (13) in ann's disk cache: the reader's own loads and the background download.
        let cache = annHome.path + "/cache/pajama/together"
        let cached = await eventually(timeout: HeadlessReading.timeout) {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).count >= 13
        }
        #expect(cached, "\((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? [])")
        await host.end()
        try await ann.waitFor("Olive ended the session")
        try await ann.press(.character(" "), thenWaitFor: "Walk page two.")
        try await ann.press(.character(" "), thenWaitFor: "Which way now?")
        try await ann.type("1", thenWaitFor: "The left path page.")
        try await ann.press(.character(" "), thenWaitFor: "Up or down?")
        try await ann.type("2", thenWaitFor: "The valley page.")
        for index in 1...8 { try await ann.press(.character(" "), thenWaitFor: "Deeper, step \(index).") }
        #expect(await ann.quit() == 0)
    }

    /// An ink story (Stories/ferry-cat) hosted: a follower sees the owner's pages, and a late one lands on
    /// the current page, made from the owner's seed and state.
    @Test func aFollowerOfAnInkStorySeesTheOwnersPagesAndALateOneLandsOnTheCurrentOne() async throws {
        let homes = Homes()
        defer { homes.remove() }
        let file = PackagePaths.stories.appendingPathComponent("ferry-cat/ferry-cat.ink.json").path
        let token = "tok-tok-tok-tok-1"
        let owner = HeadlessReading.host(file, token: token, home: try homes.make("owner"))
        try await owner.waitFor("The Pajama team")
        let url = try await owner.joinURL()
        let ann = HeadlessReading.join(url, token: token, home: try homes.make("ann"))
        try await ann.waitFor("The Pajama team")
        try await owner.waitFor("1 following")
        for (key, shows) in [(Key.character(" "), "Every morning the ferry"), (.character(" "), "2. Stay aboard"), (.character("2"), "Pim sat very still")] {
            try await owner.press(key, thenWaitFor: shows)
            try await ann.waitFor(shows)
        }
        let late = HeadlessReading.join(url, token: token, home: try homes.make("cy"), name: "cy")
        try await late.waitFor("Pim sat very still")
        try await owner.press(.character(" "), thenWaitFor: "That evening the captain")
        for follower in [ann, late] { try await follower.waitFor("That evening the captain") }
        await quit([ann, late], owner: owner)
    }

    /// The Twine story of TwineReadingTests in a folder.
    static func twineFolder(in home: TemporaryDirectory, at path: String = "story", named name: String = "tide-mill.twee") throws -> String {
        _ = try home.write("\(path)/\(name)", TwineReadingTests.twee)
        _ = try home.write("\(path)/images/mill.txt", "==[ MILL ART ]==\n  |~~|  \n")
        return home.url.appendingPathComponent(path).path
    }

    @Test func anOwnerAndTwoFollowersReadATwineStoryTogether() async throws {
        let homes = Homes()
        defer { homes.remove() }
        let ownerHome = try homes.make("owner")
        let token = "twine-token-0001"
        let owner = HeadlessReading.host(try Self.twineFolder(in: ownerHome), token: token, home: ownerHome, width: 100, height: 30)
        try await owner.waitUntil("the title page") { $0.contains("The Tide Mill") && $0.contains("1 page read") }  // not the loading frame
        let url = try await owner.joinURL()
        let ann = HeadlessReading.join(url, token: token, home: try homes.make("ann"), width: 100, height: 30)
        let cy = HeadlessReading.join(url, token: token, home: try homes.make("cy"), name: "cy", width: 100, height: 30)
        for follower in [ann, cy] { try await follower.waitFor("The Tide Mill") }
        try await owner.waitFor("2 following")
        let moves: [(key: Key, shows: String)] = [
            (.character(" "), "==[ MILL ART ]=="), (.character(" "), "3. Walk to the sea"), (.character("1"), "The sack holds 2 loaves of flour."),
            (.character(" "), "1. Climb the ladder"), (.character("1"), "You count the sacks below."),
        ]
        for move in moves {
            try await owner.press(move.key, thenWaitFor: move.shows)
            for follower in [ann, cy] { try await follower.waitFor(move.shows) }
        }
        await quit([ann, cy], owner: owner)
    }

    /// A Twine story on a web server, by its folder's URL (`story.twee` found there), read and hosted: the
    /// owner and a follower see its picture, read from beside it over HTTP.
    @Test func aTwineStoryByItsFolderURLHostedWithItsPicture() async throws {
        let homes = Homes()
        defer { homes.remove() }
        let web = try homes.make("web")
        _ = try Self.twineFolder(in: web, at: "mill", named: "story.twee")
        let server = try await TestHTTPServer(root: web.url)
        defer { server.stopSoon() }
        let token = "twine-token-0002"
        let owner = HeadlessReading.host(server.baseURL + "/mill/", token: token, home: try homes.make("owner"), width: 100, height: 30)
        try await owner.waitUntil("the title page") { $0.contains("The Tide Mill") && $0.contains("1 page read") }  // not the loading frame
        let ann = HeadlessReading.join(try await owner.joinURL(), token: token, home: try homes.make("ann"), width: 100, height: 30)
        try await ann.waitFor("The Tide Mill")
        try await owner.waitFor("1 following")
        try await owner.press(.character(" "), thenWaitFor: "==[ MILL ART ]==")
        let seen = try await ann.waitFor("==[ MILL ART ]==")
        #expect(seen.contains("The tide mill creaks."))
        #expect(server.requestCount(for: "mill/story.twee") >= 1 && server.requestCount(for: "mill/images/mill.txt") >= 1)
        await quit([ann], owner: owner)
    }
}
