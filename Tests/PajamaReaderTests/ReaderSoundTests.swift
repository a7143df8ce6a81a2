import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// A reading's sound on a private PulseAudio server, in process: the reader's own sound engine (what `pajama
/// read` starts) plays on the server the options name. What is checked is the server's own view (its sink
/// inputs, and the events `pactl subscribe` reports), not what the reader believes it played.
@MainActor @Suite struct ReaderSoundTests {
    /// Starting a server and asking pactl block their thread (`BlockingWork`).
    @discardableResult
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork.run(body)
    }

    /// The Harlowe Audio Library's looping track: it plays from its page, goes on across a passage link (one
    /// stream, not restarted), and `(track: 'x', 'stop')` ends it. The track lists an `.mp3` first that the
    /// story does not ship: the `.wav` after it plays, as in a browser.
    @Test func aHALLoopPlaysAcrossPassagesUntilStopped() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-twine-hal")
        defer { home.remove() }
        _ = try home.write("story/rain.twee", """
            :: StoryData
            {"ifid": "6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C35", "format": "Harlowe", "format-version": "3.3.9", "start": "Porch"}

            :: hal.tracks
            rain: ./sounds/rain.mp3, https://example.com/rain.mp3, ./sounds/rain.wav

            :: Porch
            (track: 'rain', 'loop', true)(track: 'rain', 'play')Rain on the porch.
            [[Walk out->Yard]]

            :: Yard
            Still raining in the yard.
            [[Go in->Hall]]

            :: Hall
            (track: 'rain', 'stop')Quiet in the hall.
            """)
        _ = try home.write("story/sounds/rain.wav", Data(TestSound.wav(seconds: 1.0, frequency: 330)))
        let (server, watcher) = try await blocking {
            let server = try PrivatePulseServer()
            return (server, try SinkInputWatcher(server: server))
        }
        defer {
            watcher.stop()
            server.stop()
        }
        let t = HeadlessReading.read(home.url.appendingPathComponent("story").path, home: home, width: 100, height: 30,
                                     options: ReaderOptions(soundServer: server.serverAddress))
        try await t.waitUntil("the title page") { $0.contains("rain") && $0.contains("1 page read") }
        try await t.press(.character(" "), thenWaitFor: "Rain on the porch.")
        // The loop is the sink input named "Pajama background"; the first new sink input is when to look.
        try await blocking { try watcher.waitFor("a sink input") { !$0.isEmpty } }
        let loop = try await blocking { () -> Int in
            var found: Int?
            guard server.waitUntil(timeout: 30, { found = server.sinkInput(named: "Pajama background"); return found != nil }), let found else {
                throw HeadlessReading.Timeout(description: "no loop: \(server.pactl("list", "sink-inputs"))")
            }
            return found
        }
        try await t.press(.character(" "), thenWaitFor: "1. Walk out")
        try await t.type("1", thenWaitFor: "Still raining in the yard.")
        #expect(try await blocking { server.sinkInput(named: "Pajama background") } == loop)
        #expect(!watcher.ended().contains(loop))
        try await t.press(.character(" "), thenWaitFor: "1. Go in")
        try await t.type("1", thenWaitFor: "Quiet in the hall.")
        try await blocking {
            try watcher.waitFor("the loop stopped at (track: 'rain', 'stop')") { $0.contains { $0.kind == .remove && $0.index == loop } }
        }
        #expect(try await blocking { server.sinkInput(named: "Pajama background") } == nil)
        #expect(watcher.events().filter { $0.kind == .new && $0.index == loop }.count == 1)
        #expect(await t.quit() == 0)
    }

    /// The story's sounds really come out: page-enter and tap sounds of the first pages reach the sink;
    /// quitting removes the reader's samples from the server.
    @Test func pageEnterAndTapSoundsComeOutOfTheSink() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-sounds")
        defer { home.remove() }
        let server = try await blocking { try PrivatePulseServer() }
        defer { server.stop() }
        let t = HeadlessReading.read(PackagePaths.stories.appendingPathComponent("lantern-keeper").path, home: home,
                                     options: ReaderOptions(soundServer: server.serverAddress))
        try await t.waitFor("A short story")
        try await t.waitFor("sound: on")
        let recorder = try await blocking { try SinkRecorder(server: server) }
        // Into the story: page_enter and tap sounds of the first pages.
        for text in ReadingAStoryTests.openingTaps + ["What will Mina do?"] { try await t.press(.character(" "), thenWaitFor: text) }
        // Until the sink has carried 0.3 s of sound (or the deadline passes).
        let loud = try await blocking { () -> Double in
            var loud = 0.0
            Poll.until(timeout: 15, interval: 50_000) {
                loud = SinkRecorder.loudSeconds(recorder.samples())
                return loud > 0.3
            }
            _ = recorder.stop()
            return loud
        }
        #expect(loud > 0.3, "heard \(loud) s of sound while reading")
        #expect(await t.quit() == 0)
        #expect(try await blocking { !server.pactl("list", "samples", "short").contains("pajama.") })
    }

    /// The status line follows the server without a key: gone, then a new server on the same socket taken
    /// up (the engine retries with backoff: 1, 2, 4... s); quitting removes the reader's samples from it.
    @Test func theStatusLineFollowsTheServerWithoutAKey() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-pulse-follow")
        defer { home.remove() }
        let folder = try TemporaryDirectory(prefix: "pajama-pulse")
        defer { folder.remove() }
        let socket = folder.path + "/native"
        let first = try await blocking { try PrivatePulseServer(socketPath: socket, folder: folder) }
        let t = HeadlessReading.read(PackagePaths.stories.appendingPathComponent("lantern-keeper").path, home: home,
                                     options: ReaderOptions(soundServer: first.serverAddress))
        try await t.waitFor("A short story")
        try await t.waitFor("sound: on")
        try await blocking { first.stop(removeFolder: false) }
        try await t.waitFor("sound: off (no server)")
        let second = try await blocking { try PrivatePulseServer(socketPath: socket, folder: folder) }
        defer { second.stop(removeFolder: false) }
        try await t.waitUntil("sound: on again") { $0.contains("sound: on") }
        #expect(await t.quit() == 0)
        #expect(try await blocking { second.waitUntil { !second.sampleNames().contains { $0.hasPrefix("pajama.") } } }, "samples left")
    }

    /// No key pressed: only the cover's page_enter sound (the sea wind, `important`) can play, and it does.
    @Test func theFirstPageEnterSoundPlaysOnFirstOpen() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-first-sound")
        defer { home.remove() }
        let (server, watcher) = try await blocking {
            let server = try PrivatePulseServer()
            return (server, try SinkInputWatcher(server: server))
        }
        defer {
            watcher.stop()
            server.stop()
        }
        let t = HeadlessReading.read(PackagePaths.stories.appendingPathComponent("lantern-keeper").path, home: home,
                                     options: ReaderOptions(soundServer: server.serverAddress))
        try await t.waitFor("A short story")
        try await blocking { try watcher.waitFor("the sea wind to play") { !$0.filter { $0.kind == .new }.isEmpty } }
        #expect(await t.quit() == 0)
    }

    /// The sound keys with no server, and with `--no-sound`, say why there is no sound; the next key clears it.
    @Test func soundKeysWithNoServerOrNoSoundSayWhy() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-no-server")
        defer { home.remove() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let t = HeadlessReading.read(story, home: home, options: ReaderOptions(soundServer: "unix:/nonexistent"))
        try await t.waitFor("sound: off (no server)")
        for key in ["m", "+", "-"] {
            try await t.type(key, thenWaitFor: "sound is off (no server)")
            // The next key clears the notice.
            try await t.type("?", thenWaitFor: "any key to close")
            try await t.waitUntil("the notice cleared") { !$0.contains("sound is off") }
            t.terminal.type("x")
            try await t.waitUntil("the help closed") { $0.contains("A short story") && !$0.contains("any key to close") }
        }
        #expect(await t.quit() == 0)

        let quiet = HeadlessReading.read(story, home: home, options: ReaderOptions(noSound: true))
        try await quiet.waitFor("A short story")
        try await quiet.type("m", thenWaitFor: "sound is off (--no-sound)")
        #expect(await quiet.quit() == 0)
    }
}
