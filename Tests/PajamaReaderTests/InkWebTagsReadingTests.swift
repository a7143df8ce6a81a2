import Foundation
import PajamaModel
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// An ink story written for Inky's web player, read as `pajama read` reads it, in process, with a private
/// PulseAudio server (docs/ink.md, "Inky's tags", "Markup"; docs/sound.md, "Background sound"): the picture
/// from `IMAGE`, bold text drawn bold, no raw tag on the screen, `CLEAR` making a new page, the `AUDIOLOOP`
/// sound playing across pages and a choice until `AUDIOLOOP: none`, `RESTART` ending at the end screen, and
/// quitting stopping the loop. What is heard is the server's own view (its sink inputs, `pactl subscribe`).
@MainActor @Suite struct InkWebTagsReadingTests {
    /// The story's folder in `home`: the ink file, a text-art picture, a PNG background and a one-second loop.
    static func folder(in home: TemporaryDirectory) throws -> String {
        try home.write("story/web.ink.json", InkStoryFixtures.webOnScreen)
        try home.write("story/images/harbour.txt", "~~ HARBOUR ART ~~\n  |\\  /|  \n")
        try home.write("story/images/bg.png", Data(PNGFile.rgba(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64))))
        try home.write("story/sounds/rain.wav", Data(TestSound.wav(seconds: 1.0, frequency: 330)))
        return home.url.appendingPathComponent("story").path
    }

    /// A private server and a watcher of its sink inputs.
    static func server() async throws -> (PrivatePulseServer, SinkInputWatcher) {
        try await BlockingWork.run {
            let server = try PrivatePulseServer()
            do { return (server, try SinkInputWatcher(server: server)) } catch {
                server.stop()
                throw error
            }
        }
    }

    /// The sink input playing the background sound, once there is one.
    static func loopInput(_ server: PrivatePulseServer) async throws -> Int {
        try await BlockingWork.run {
            var found: Int?
            guard server.waitUntil(timeout: 30, { found = server.sinkInput(named: "Pajama background"); return found != nil }), let found else {
                throw HeadlessReading.Timeout(description: "no background sound input: \(server.pactl("list", "sink-inputs"))")
            }
            return found
        }
    }

    /// `body` with the Inky story read (120x30) on its own private sound server, watched; both stopped after.
    static func reading(_ prefix: String, _ body: (HeadlessReading, PrivatePulseServer, SinkInputWatcher) async throws -> Void) async throws {
        let home = try TemporaryDirectory(prefix: prefix)
        defer { home.remove() }
        let folder = try Self.folder(in: home)
        let (server, watcher) = try await Self.server()
        defer {
            watcher.stop()
            server.stop()
        }
        let t = HeadlessReading.read(folder, home: home, width: 120, height: 30, options: ReaderOptions(soundServer: server.serverAddress))
        try await body(t, server, watcher)
    }

    static func attributes(_ t: HeadlessReading, at word: String) -> TextAttributes? { t.cells(of: word)?.cells[0].style.attributes }

    @Test func inkysTagsAndHTMLOnTheScreenAndTheLoopAcrossPages() async throws {
        try await Self.reading("pajama-inky") { t, server, watcher in
            // The title page: the title and author without their markup (the title bar shows the title while
            // the page loads: the author is on the page alone).
            let title = try await t.waitFor("Someone & Co")
            #expect(title.contains("A Web Story") && !title.contains("<b>"))
            // The first page: the picture from IMAGE, the break as a new row, bold drawn bold, no tag anywhere.
            let first = try await t.press(.character(" "), thenWaitFor: "~~ HARBOUR ART ~~")
            #expect(first.contains("The storm came & went."))
            #expect(first.contains("Second row."))
            #expect(!first.contains("The storm came & went. Second row."))
            #expect(first.contains("Plain line with junk."))
            #expect(!first.contains("<") && !first.contains("&amp;"))
            #expect(Self.attributes(t, at: "storm")?.contains(.bold) == true, "\(first)")
            #expect(Self.attributes(t, at: "line")?.contains(.italic) == true, "\(first)")
            let plain = Self.attributes(t, at: "Plain")
            #expect(plain != nil && plain?.contains(.bold) == false && plain?.contains(.italic) == false, "\(first)")
            // The loop plays (the server lists its input) and goes on while the pages turn.
            let loop = try await Self.loopInput(server)
            // CLEAR: a new page, the earlier text gone.
            let cleared = try await t.press(.character(" "), thenWaitFor: "After the clear.")
            #expect(!cleared.contains("The storm"))
            let background = try await t.press(.character(" "), thenWaitFor: "Background page.")
            #expect(!background.contains("picture unavailable"))
            try await t.press(.character(" "), thenWaitFor: "1. Go on")
            try await t.type("1", thenWaitFor: "Still raining.")
            #expect(try await BlockingWork.run { server.sinkInput(named: "Pajama background") } == loop)
            #expect(!watcher.ended().contains(loop))
            #expect(watcher.events().filter { $0.kind == .new && $0.index == loop }.count == 1)
            // AUDIOLOOP: none: the server removes the input.
            try await t.press(.character(" "), thenWaitFor: "Quiet now.")
            try await BlockingWork.run { try watcher.waitFor("the background sound stopped") { $0.contains { $0.kind == .remove && $0.index == loop } } }
            #expect(try await BlockingWork.run { server.sinkInput(named: "Pajama background") } == nil)
            // RESTART: the line after is never shown; the end screen offers the restart.
            let end = try await t.press(.character(" "), thenWaitFor: "The End")
            #expect(end.contains("r restart"))
            #expect(!end.contains("Never shown."))
            #expect(await t.quit() == 0)
        }
    }

    @Test func quittingStopsTheLoop() async throws {
        try await Self.reading("pajama-inky-quit") { t, server, watcher in
            try await t.waitFor("Someone & Co")
            try await t.press(.character(" "), thenWaitFor: "~~ HARBOUR ART ~~")
            let loop = try await Self.loopInput(server)
            #expect(await t.quit() == 0)
            try await BlockingWork.run {
                try watcher.waitFor("the background sound stopped on quit") { $0.contains { $0.kind == .remove && $0.index == loop } }
            }
            #expect(try await BlockingWork.run { server.sinkInput(named: "Pajama background") } == nil)
        }
    }
}
