import Foundation
import PajamaTestSupport
import Testing

/// The quit signals in `pajama host` and `pajama join` (issue 25): Ctrl-C, SIGTERM and SIGHUP end the
/// reading as `q` does, as they do in `pajama read` and the library: progress saved, the followers told
/// "NAME ended the session" (host), the terminal given back, and the exit status 128 + the signal's number.
@Suite(.serialized) struct CoReadingQuitSignalsEndToEndTests {
    let coReading = CoReadingEndToEndTests()

    /// Ctrl-C typed in the pane, or the signal sent to the program.
    func send(_ signal: Int32, to t: TmuxSession) throws {
        if signal == SIGINT {
            t.send("C-c")
        } else {
            kill(try #require(t.programPID(named: "pajama")), signal)
        }
    }

    /// The program exited with `status`, the terminal as it was before: main screen, cursor shown, echo and
    /// line editing on.
    func expectRestored(_ t: TmuxSession, exitStatus: Int32) throws {
        let screen = try t.waitFor("modes: ")
        #expect(screen.contains("[exited \(exitStatus)]"), "\(screen)")
        let modes = screen.components(separatedBy: "modes:").last ?? ""
        #expect(modes.contains("echo") && modes.contains("icanon") && !modes.contains("-echo") && !modes.contains("-icanon"), "\(screen)")
        #expect(t.paneValue("#{alternate_on}") == "0")
        #expect(t.paneValue("#{cursor_flag}") == "1")
    }

    /// The progress file `t`'s reader wrote for the test story, once it names `page`.
    func expectProgress(of t: TmuxSession, at page: String) throws {
        let file = t.home.path + "/data/pajama/progress/together.json"
        try t.waitUntil("progress at \(page)") { _ in
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("\"\(page)\"")
        }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aQuitSignalToTheHostSavesTellsTheFollowersAndRestoresTheTerminal(signal: Int32) throws {
        let session = try coReading.hosted()
        defer { session.stop() }
        let owner = session.owner
        let ann = try coReading.join(port: session.port, name: "ann")
        defer { ann.stop() }
        try ann.waitFor("Walk page one.")
        try owner.waitFor("hosting · 1 following")
        try owner.press("Space", thenWaitFor: "Walk page two.")
        try ann.waitFor("Walk page two.")
        try send(signal, to: owner)
        try expectRestored(owner, exitStatus: 128 + signal)
        try ann.waitFor("Olive ended the session")
        try expectProgress(of: owner, at: "two")
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aQuitSignalToAFollowerSavesAndRestoresTheTerminal(signal: Int32) throws {
        let session = try coReading.hosted()
        defer { session.stop() }
        let owner = session.owner
        let ann = try coReading.join(port: session.port, name: "ann")
        defer { ann.stop() }
        try ann.waitFor("Walk page one.")
        try owner.waitFor("hosting · 1 following")
        try owner.press("Space", thenWaitFor: "Walk page two.")
        try ann.waitFor("Walk page two.")
        try send(signal, to: ann)
        try expectRestored(ann, exitStatus: 128 + signal)
        try owner.waitFor("hosting · 0 following")
        try expectProgress(of: ann, at: "two")
    }
}
