import Foundation
import PajamaTestSupport
import Testing

/// Drives the real `pajama` binary in tmux, reading the bundled short story.
@Suite(.serialized) struct ReaderEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// What each tap from the title page shows, up to the page before the first choice: the rock page's
    /// three lines, then the storm page's three (a tap while a page is loading is not queued, so each
    /// tap waits for what it reveals).
    static let openingTaps = ["On a rock", "Grandfather kept", "Tonight Grandfather", "Thunder walked", "Then, with", "Far away"]

    /// Taps through the opening (title page, then two three-line text pages) to the first choice.
    func readToFirstChoice(_ t: TmuxSession) throws {
        try t.waitFor("A short story")
        try tap(t, expecting: Self.openingTaps + ["What will Mina do?"])
    }

    /// Taps once per text, waiting after each tap for its text (a revealed line, a page) to appear.
    func tap(_ t: TmuxSession, expecting texts: [String]) throws {
        for text in texts { try t.press("Space", thenWaitFor: text) }
    }

    @Test func libraryOpensTheStoryAndReadsToEndingA() throws {
        let t = try TmuxSession([pajama], environment: ["PAJAMA_STORIES": PackagePaths.stories.path])
        defer { t.stop() }
        try t.waitFor("The Lantern Keeper")
        let library = t.screen()
        #expect(library.contains("The Clockwork Atlas") && library.contains("The Night Garden"))
        #expect(library.contains("new"))
        t.send("Down", "Down")  // the third story (by title): The Lantern Keeper
        try t.press("Enter", thenWaitFor: "A short story")
        try readToFirstChoice(t)
        try t.press("1", thenWaitFor: "Up went Mina")
        try tap(t, expecting: ["Ninety-eight", "The wick was fine", "How will Mina light the lamp?"])
        try t.press("1", thenWaitFor: "Mina cupped her hands")
        try tap(t, expecting: ["The match coughed", "The Light Returns", "The great beam", "The Puffin turned", "In the morning"])
        let end = try t.press("Space", thenWaitFor: "The End")
        #expect(end.contains("In the morning"))
        // q goes back to the library, which now shows the story as finished.
        try t.press("q", thenWaitFor: "finished")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func endingBWithArrowKeysAndBackThenChooseAgain() throws {
        let t = try TmuxSession([pajama, "read", story])
        defer { t.stop() }
        try readToFirstChoice(t)
        // Choose 1, go back, and choose 2 instead with the arrows.
        try t.press("1", thenWaitFor: "Up went Mina")
        try t.press("Left", thenWaitFor: "What will Mina do?")
        t.send("Down")
        try t.waitFor("› 2.")
        try t.press("Enter", thenWaitFor: "The door banged open")
        try tap(t, expecting: ["Down on the shingle", "How will Mina guide the boat in?"])
        try t.press("Enter", thenWaitFor: "Back and forth, back and forth")
        try tap(t, expecting: ["Out in the mist", "Home by Lantern Light"])
        try tap(t, expecting: ["The Puffin bumped", "I saw one small", "She gave Mina"])
        let end = try t.press("Space", thenWaitFor: "The End")
        #expect(end.contains("The Puffin bumped"))
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func resizeReflowsAndTinySizesSayTooSmall() throws {
        let t = try TmuxSession([pajama, "read", story])
        defer { t.stop() }
        try readToFirstChoice(t)
        t.resize(width: 40, height: 12)
        try t.waitFor("1. Climb")
        t.resize(width: 160, height: 50)
        try t.waitFor("1. Climb the hundred stairs to the lamp room")
        t.resize(width: 12, height: 4)
        try t.waitFor("terminal")
        t.resize(width: 80, height: 24)
        try t.waitFor("What will Mina do?")
        try t.press("1", thenWaitFor: "Up went Mina")
    }

    @Test func quitAndResumeWhereYouLeftOff() throws {
        let home = try TemporaryDirectory(prefix: "pajama-resume")
        let first = try TmuxSession([pajama, "read", story], home: home)
        try readToFirstChoice(first)
        try first.press("2", thenWaitFor: "The door banged open")
        try first.press("q", thenWaitFor: "[exited 0]")
        first.killServer()
        let second = try TmuxSession([pajama, "read", story], home: home)
        defer { second.stop() }
        try second.waitFor("The door banged open")
        // Back still works after resuming: the history was saved too.
        try second.press("Left", thenWaitFor: "What will Mina do?")
    }

    @Test func readsAStoryOverHTTP() async throws {
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let t = try TmuxSession([pajama, "read", server.baseURL + "/lantern-keeper/"])
        defer { t.stop() }
        try readToFirstChoice(t)
        try t.press("1", thenWaitFor: "Up went Mina")
    }

    @Test func aSlowBeatShowsLoadingWhileItIsAwaitedThenThePage() async throws {
        // storm.json is held by the server until the test lets it go: the preloader's request for it is in
        // progress whatever the machine's load, so the move into storm must wait on it.
        let server = try await TestHTTPServer(root: PackagePaths.stories, options: .init())
        server.update { $0.held = ["lantern-keeper/beats/storm.json"] }
        defer { server.stopSoon() }
        let t = try TmuxSession([pajama, "read", "--no-sound", server.baseURL + "/lantern-keeper/"])
        defer { t.stop() }
        try t.waitFor("A short story")
        // To the last line of the start beat (the title page, then three lines revealed one by one).
        try tap(t, expecting: Array(Self.openingTaps.prefix(3)))
        try t.waitFor("outside the wind was getting ideas")
        let loading = try t.press("Space", thenWaitFor: "Loading the next page…")
        #expect(!loading.contains("storm"), "the Loading screen says what the reader knows, not the beat's id (issue 35)")
        server.update { $0.held = [] }
        try t.waitFor("Thunder walked")
        // The preloader asked for storm while the reader was still on the first beat; turning that
        // beat's pages kept its request going instead of cancelling and sending it again.
        #expect(server.requestCount(for: "lantern-keeper/beats/storm.json") == 1)
    }

    @Test func missingCriticalPictureShowsAnErrorAndRetryWorksOnceItAppears() throws {
        let copy = try TemporaryDirectory(prefix: "pajama-missing")
        defer { copy.remove() }
        let folder = copy.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        let picture = folder.appendingPathComponent("assets/images/choice.png")
        let aside = copy.url.appendingPathComponent("choice.png")
        try FileManager.default.moveItem(at: picture, to: aside)
        let t = try TmuxSession([pajama, "read", "--no-sound", folder.path])
        defer { t.stop() }
        try t.waitFor("A short story")
        try tap(t, expecting: Self.openingTaps)
        let error = try t.press("Space", thenWaitFor: "Could not load")
        #expect(error.contains("assets/images/choice.png"))
        try FileManager.default.moveItem(at: aside, to: picture)
        try t.press("r", thenWaitFor: "What will Mina do?")
    }

    @Test func terminalIsRestoredAfterSIGTERM() throws {
        let t = try TmuxSession([pajama, "read", story])
        defer { t.stop() }
        try t.waitFor("A short story")
        #expect(t.paneValue("#{alternate_on}") == "1")
        let pid = try #require(t.programPID(named: "pajama"))
        kill(pid, SIGTERM)
        try t.waitFor("[exited 143]")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
    }
}

/// The real binary with a private PulseAudio server: the story's sounds really come out.
@Suite(.serialized) struct ReaderSoundEndToEndTests {
    @Test func pageEnterAndTapSoundsComeOutOfTheSink() throws {
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let t = try TmuxSession([PackagePaths.executable("pajama").path, "read", story],
                                environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("A short story")
        try t.waitFor("sound: on")
        let recorder = try SinkRecorder(server: server)
        // Into the story: page_enter and tap sounds of the first pages.
        for text in ReaderEndToEndTests.openingTaps + ["What will Mina do?"] { try t.press("Space", thenWaitFor: text) }
        // Until the sink has carried 0.3 s of sound (or the deadline passes).
        var loud = 0.0
        Poll.until(timeout: 15, interval: 50_000) {
            loud = SinkRecorder.loudSeconds(recorder.samples())
            return loud > 0.3
        }
        _ = recorder.stop()
        #expect(loud > 0.3, "heard \(loud) s of sound while reading")
        // Quitting removes our samples from the server.
        try t.press("q", thenWaitFor: "[exited 0]")
        #expect(!server.pactl("list", "samples", "short").contains("pajama."))
    }
}
