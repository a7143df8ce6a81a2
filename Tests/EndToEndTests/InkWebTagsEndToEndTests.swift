import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// An ink story written for Inky's web player, on the real binary in tmux with a private PulseAudio server
/// (docs/ink.md, "Inky's tags", "Markup"; docs/sound.md, "Background sound"): the picture from `IMAGE`, bold
/// text drawn bold, no raw tag on the screen, `CLEAR` making a new page, the `AUDIOLOOP` sound playing across
/// pages and a choice until `AUDIOLOOP: none`, `RESTART` ending at the end screen, and quitting stopping the
/// loop.
@Suite(.serialized) struct InkWebTagsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    static let story = ##"""
    {"inkVersion":21,"root":[["#","^title: A <b>Web</b> Story","/#","#","^AUTHOR: Someone &amp; Co","/#","^The <b>storm</b> came &amp; went.<br>Second row.","#","^IMAGE: images/harbour.txt","/#","#","^AUDIOLOOP: sounds/rain.wav","/#","\n","^Plain <i>line</i> with <blink>junk</blink>.","\n","#","^CLEAR","/#","^After the clear.","\n","#","^BACKGROUND: images/bg.png","/#","^Background page.","\n","ev","str","^Go <b>on</b>","/str","/ev",{"*":"0.c-0","flg":20},{"c-0":[{"->":"next"},{"#f":5}]}],"done",{"next":["^Still raining.","\n","#","^AUDIOLOOP: none","/#","^Quiet now.","\n","#","^RESTART","/#","^Never shown.","\n","end",{"#f":1}]}],"listDefs":{}}
    """##

    /// The story's folder: the ink file, a text-art picture, a PNG background and a one-second loop.
    static func folder() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-inky")
        try dir.write("web.ink.json", story)
        try dir.write("images/harbour.txt", "~~ HARBOUR ART ~~\n  |\\  /|  \n")
        try dir.write("images/bg.png", Data(PNGFile.rgba(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64))))
        try dir.write("sounds/rain.wav", Data(TestSound.wav(seconds: 1.0, frequency: 330)))
        return dir
    }

    /// The index of the sink input playing the background sound, nil when there is none.
    static func loopInput(_ server: PrivatePulseServer) -> Int? { server.sinkInput(named: "Pajama background") }

    @Test func inkysTagsAndHTMLOnTheScreenAndTheLoopAcrossPages() throws {
        let dir = try Self.folder()
        defer { dir.remove() }
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let t = try TmuxSession([pajama, "read", dir.path], width: 120, height: 30, environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        // The title page: the title and author without their markup (the title bar shows the title while
        // the page loads: the author is on the page alone).
        let title = try t.waitFor("Someone & Co")
        #expect(title.contains("A Web Story") && !title.contains("<b>"))
        // The first page: the picture from IMAGE, the break as a new row, bold drawn bold, no tag anywhere.
        let first = try t.press("Space", thenWaitFor: "~~ HARBOUR ART ~~")
        #expect(first.contains("The storm came & went."))
        #expect(first.contains("Second row."))
        #expect(!first.contains("The storm came & went. Second row."))
        #expect(first.contains("Plain line with junk."))
        #expect(!first.contains("<") && !first.contains("&amp;"))
        #expect(t.attributes(at: "storm")?.contains("1") == true, "\(t.screenWithColours())")
        #expect(t.attributes(at: "line")?.contains("3") == true, "\(t.screenWithColours())")
        let plain = t.attributes(at: "Plain")
        #expect(plain != nil && plain?.contains("1") == false && plain?.contains("3") == false, "\(t.screenWithColours())")
        // The loop plays (the server lists its input) and goes on while the pages turn.
        #expect(server.waitUntil { Self.loopInput(server) != nil }, "no background sound input: \(server.pactl("list", "sink-inputs"))")
        let loop = Self.loopInput(server)!
        // CLEAR: a new page, the earlier text gone.
        let cleared = try t.press("Space", thenWaitFor: "After the clear.")
        #expect(!cleared.contains("The storm"))
        let background = try t.press("Space", thenWaitFor: "Background page.")
        #expect(!background.contains("picture unavailable"))
        try t.press("Space", thenWaitFor: "1. Go on")
        try t.press("1", thenWaitFor: "Still raining.")
        #expect(Self.loopInput(server) == loop)
        #expect(!watcher.ended().contains(loop))
        #expect(watcher.events().filter { $0.kind == .new && $0.index == loop }.count == 1)
        // AUDIOLOOP: none: the server removes the input.
        try t.press("Space", thenWaitFor: "Quiet now.")
        try watcher.waitFor("the background sound stopped") { $0.contains { $0.kind == .remove && $0.index == loop } }
        #expect(Self.loopInput(server) == nil)
        // RESTART: the line after is never shown; the end screen offers the restart.
        let end = try t.press("Space", thenWaitFor: "The End")
        #expect(end.contains("r restart"))
        #expect(!end.contains("Never shown."))
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func quittingStopsTheLoop() throws {
        let dir = try Self.folder()
        defer { dir.remove() }
        let server = try PrivatePulseServer()
        defer { server.stop() }
        let watcher = try SinkInputWatcher(server: server)
        defer { watcher.stop() }
        let t = try TmuxSession([pajama, "read", dir.path], width: 120, height: 30, environment: ["PULSE_SERVER": server.serverAddress])
        defer { t.stop() }
        try t.waitFor("Someone & Co")
        try t.press("Space", thenWaitFor: "~~ HARBOUR ART ~~")
        #expect(server.waitUntil { Self.loopInput(server) != nil })
        let loop = Self.loopInput(server)!
        try t.press("q", thenWaitFor: "[exited 0]")
        try watcher.waitFor("the background sound stopped on quit") { $0.contains { $0.kind == .remove && $0.index == loop } }
        #expect(Self.loopInput(server) == nil)
    }

    @Test func validateListsTheMarkupItDoesNotKnow() throws {
        let dir = try Self.folder()
        defer { dir.remove() }
        let home = try TemporaryDirectory(prefix: "pajama-inky-validate")
        defer { home.remove() }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        let result = try ChildProcess.run(pajama, ["validate", dir.path + "/web.ink.json"], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("markup the reader does not know: <blink>"), "\(result.stdout)\(result.stderr)")
    }
}
