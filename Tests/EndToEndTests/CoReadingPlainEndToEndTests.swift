import Foundation
import PajamaTestSupport
import Testing

/// `pajama join --plain`: a follower in plain mode (a screen reader's co-reading) beside an owner on the full
/// screen, each in its own tmux pane on 127.0.0.1.
@Suite(.serialized) struct CoReadingPlainEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let coReading = CoReadingEndToEndTests()

    /// Whether the last line shown is the plain prompt (tmux drops the space after it).
    func prompted(_ screen: String) -> Bool { screen.split(separator: "\n").last { !$0.isEmpty } == ">" }

    @Test func aPlainFollowerPrintsTheOwnersPagesAndItsMovesMoveNobody() throws {
        let session = try coReading.hosted()
        defer { session.stop() }
        let owner = session.owner
        let follower = try TmuxSession(
            [pajama, "join", "--plain", "--no-sound", "http://127.0.0.1:\(session.port)/", "--token", CoReadingEndToEndTests.token,
             "--name", "ann"], width: 100, height: 40)
        defer { follower.stop() }
        try follower.waitUntil("the first page and the prompt") { $0.contains("Walk page one.") && prompted($0) }
        try owner.waitFor("hosting · 1 following")
        try owner.press("Space", thenWaitFor: "Walk page two.")
        try follower.waitFor("Walk page two.")
        try owner.press("Space", thenWaitFor: "Which way now?")
        try follower.waitUntil("the choices as a list") { $0.contains("Which way now?\n  1. Left path\n  2. Right path") }
        // The follower's moves move nobody: it is told whom it follows.
        follower.send("2", "Enter")
        try follower.waitFor("(following Olive: the pages turn as they do)")
        try owner.press("1", thenWaitFor: "The left path page.")
        try follower.waitFor("The left path page.")
        #expect(!follower.screen().contains("The right path page."))
        #expect(follower.paneValue("#{alternate_on}") == "0")
        // The owner quits: the follower is told and reads on alone (the host serves the story on meanwhile).
        try owner.press("q", thenWaitFor: "1 follower still reading")
        try follower.waitFor("Olive ended the session")
        follower.send("Enter")
        try follower.waitFor("Up or down?")
        follower.send("1", "Enter")
        try follower.waitFor("The hilltop page.")
        follower.send("q", "Enter")
        try follower.waitFor("[exited 0]")
        try owner.waitFor("[exited 0]")
    }
}
