import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The bundled short story read through, as `pajama` and `pajama read` read it, in process: the library
/// and both endings, back and the arrows, resize, quit and resume, over HTTP, a beat the server holds back,
/// and a missing critical picture that comes back on retry.
@MainActor @Suite struct ReadingAStoryTests {
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// What each tap from the title page shows, up to the page before the first choice: the rock page's
    /// three lines, then the storm page's three (a tap while a page is loading is not queued, so each
    /// tap waits for what it reveals).
    static let openingTaps = ["On a rock", "Grandfather kept", "Tonight Grandfather", "Thunder walked", "Then, with", "Far away"]

    /// Taps once per text, waiting after each tap for its text (a revealed line, a page) to appear.
    func tap(_ t: HeadlessReading, expecting texts: [String]) async throws {
        for text in texts { try await t.press(.character(" "), thenWaitFor: text) }
    }

    /// Taps through the opening (title page, then two three-line text pages) to the first choice.
    func readToFirstChoice(_ t: HeadlessReading) async throws {
        try await t.waitFor("A short story")
        try await tap(t, expecting: Self.openingTaps + ["What will Mina do?"])
    }

    @Test func libraryOpensTheStoryAndReadsToEndingA() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-library")
        defer { home.remove() }
        let t = HeadlessReading.library(PackagePaths.stories.path, home: home)
        let library = try await t.waitFor("The Lantern Keeper")
        #expect(library.contains("The Clockwork Atlas") && library.contains("The Night Garden"))
        #expect(library.contains("new"))
        t.terminal.push(.down, .down)  // the third story (by title): The Lantern Keeper
        try await t.press(.enter, thenWaitFor: "A short story")
        try await readToFirstChoice(t)
        try await t.type("1", thenWaitFor: "Up went Mina")
        try await tap(t, expecting: ["Ninety-eight", "The wick was fine", "How will Mina light the lamp?"])
        try await t.type("1", thenWaitFor: "Mina cupped her hands")
        try await tap(t, expecting: ["The match coughed", "The Light Returns", "The great beam", "The Puffin turned", "In the morning"])
        let end = try await t.press(.character(" "), thenWaitFor: "The End")
        #expect(end.contains("In the morning"))
        // q goes back to the library, which now shows the story as finished.
        try await t.type("q", thenWaitFor: "finished")
        #expect(await t.quit() == 0)
    }

    @Test func endingBWithArrowKeysAndBackThenChooseAgain() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-ending-b")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home)
        try await readToFirstChoice(t)
        // Choose 1, go back, and choose 2 instead with the arrows.
        try await t.type("1", thenWaitFor: "Up went Mina")
        try await t.press(.left, thenWaitFor: "What will Mina do?")
        try await t.press(.down, thenWaitFor: "› 2.")
        try await t.press(.enter, thenWaitFor: "The door banged open")
        try await tap(t, expecting: ["Down on the shingle", "How will Mina guide the boat in?"])
        try await t.press(.enter, thenWaitFor: "Back and forth, back and forth")
        try await tap(t, expecting: ["Out in the mist", "Home by Lantern Light"])
        try await tap(t, expecting: ["The Puffin bumped", "I saw one small", "She gave Mina"])
        let end = try await t.press(.character(" "), thenWaitFor: "The End")
        #expect(end.contains("The Puffin bumped"))
        #expect(await t.quit() == 0)
    }

    @Test func resizeReflowsAndTinySizesSayTooSmall() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-resize")
        defer { home.remove() }
        let t = HeadlessReading.read(story, home: home)
        try await readToFirstChoice(t)
        t.terminal.resize(width: 40, height: 12)
        try await t.waitUntil("the 40-column frame") { $0.contains("1. Climb") && !$0.contains("1. Climb the hundred stairs to the lamp room") }
        t.terminal.resize(width: 160, height: 50)
        try await t.waitFor("1. Climb the hundred stairs to the lamp room")
        t.terminal.resize(width: 12, height: 4)
        try await t.waitFor("terminal")
        t.terminal.resize(width: 80, height: 24)
        try await t.waitFor("What will Mina do?")
        try await t.type("1", thenWaitFor: "Up went Mina")
        #expect(await t.quit() == 0)
    }

    @Test func quitAndResumeWhereYouLeftOff() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-resume")
        defer { home.remove() }
        let first = HeadlessReading.read(story, home: home)
        try await readToFirstChoice(first)
        try await first.type("2", thenWaitFor: "The door banged open")
        #expect(await first.quit() == 0)
        let second = HeadlessReading.read(story, home: home)
        try await second.waitFor("The door banged open")
        // Back still works after resuming: the history was saved too.
        try await second.press(.left, thenWaitFor: "What will Mina do?")
        #expect(await second.quit() == 0)
    }

    @Test func readsAStoryOverHTTP() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-http")
        defer { home.remove() }
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let t = HeadlessReading.read(server.baseURL + "/lantern-keeper/", home: home)
        try await readToFirstChoice(t)
        try await t.type("1", thenWaitFor: "Up went Mina")
        #expect(await t.quit() == 0)
    }

    @Test func aSlowBeatShowsLoadingWhileItIsAwaitedThenThePage() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-slow-beat")
        defer { home.remove() }
        // storm.json trickles from the server until the test lets it go: the preloader's request for it is
        // in progress whatever the machine's load, so the move into storm must wait on it. (Held without a
        // byte, it outlived the reader's 10 s no-progress limit on a busy machine and was rightly sent again.)
        let server = try await TestHTTPServer(root: PackagePaths.stories, options: .init())
        server.update { $0.trickling = ["lantern-keeper/beats/storm.json"] }
        defer { server.stopSoon() }
        let t = HeadlessReading.read(server.baseURL + "/lantern-keeper/", home: home)
        try await t.waitFor("A short story")
        // To the last line of the start beat (the title page, then three lines revealed one by one).
        try await tap(t, expecting: Array(Self.openingTaps.prefix(3)))
        try await t.waitFor("outside the wind was getting ideas")
        let loading = try await t.press(.character(" "), thenWaitFor: "Loading the next page…")
        #expect(!loading.contains("storm"), "the Loading screen says what the reader knows, not the beat's id (issue 35)")
        server.update { $0.trickling = [] }
        try await t.waitFor("Thunder walked")
        // The preloader asked for storm while the reader was still on the first beat; turning that
        // beat's pages kept its request going instead of cancelling and sending it again.
        #expect(server.requestCount(for: "lantern-keeper/beats/storm.json") == 1)
        #expect(await t.quit() == 0)
    }

    @Test func missingCriticalPictureShowsAnErrorAndRetryWorksOnceItAppears() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-missing")
        defer { home.remove() }
        let folder = home.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        let picture = folder.appendingPathComponent("assets/images/choice.png")
        let aside = home.url.appendingPathComponent("choice.png")
        try FileManager.default.moveItem(at: picture, to: aside)
        let t = HeadlessReading.read(folder.path, home: home)
        try await t.waitFor("A short story")
        try await tap(t, expecting: Self.openingTaps)
        let error = try await t.press(.character(" "), thenWaitFor: "Could not load")
        #expect(error.contains("assets/images/choice.png"))
        try FileManager.default.moveItem(at: aside, to: picture)
        try await t.type("r", thenWaitFor: "What will Mina do?")
        #expect(await t.quit() == 0)
    }
}
