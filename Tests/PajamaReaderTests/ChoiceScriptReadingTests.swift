import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// A ChoiceScript game read as `pajama read` reads it (docs/choicescript.md), in process: `i` shows its stats
/// screen (`choicescript_stats.txt`, its `*stat_chart` as bars) over the page, as the reading stands there;
/// the help and the status line name `i`; any key closes it.
@MainActor @Suite struct ChoiceScriptReadingTests {
    static let startup = """
        *title The Shore
        *create strength 40
        The tide turns.
        *choice
          #Lift the boat.
            *set strength +17
            The boat rises.
            *choice
              #Row out.
                *ending
              #Stay.
                *ending
          #Wait.
            *ending
        """
    static let stats = """
        Your stats.
        *stat_chart
          percent strength Strength
        """

    /// `*input_text` and `*input_number` are question pages: typed on the page (Backspace takes back), Enter
    /// answers, a refused number says why, Esc gives the next key to the commands (b back to the question).
    @Test func aTypedAnswerIsTypedOnThePageAndEnterTakesIt() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-choicescript-answer")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", """
            *create name ""
            *create age 0
            What is your name?
            *input_text name
            How old are you, ${name}?
            *input_number age 1 120
            ${name} is ${age}.
            *ending
            """)
        let t = HeadlessReading.read(home.url.appendingPathComponent("game").path, home: home, width: 80, height: 24)
        // A key pressed before the first page is shown has no page to act on (the reader drops it, as it
        // would a key typed while `pajama read` starts): wait for the title page, as a reader sees it.
        try await t.waitUntil("the title page") { $0.contains("game") && $0.contains("1 page read") }
        try await t.press(.character(" "), thenWaitFor: "What is your name?")
        try await t.type("Adz", thenWaitFor: "› Adz▏")
        try await t.press(.backspace, thenWaitFor: "› Ad▏")
        try await t.type("a", thenWaitFor: "› Ada▏")
        try await t.press(.enter, thenWaitFor: "How old are you, Ada?")
        try await t.type("200", thenWaitFor: "› 200▏")
        try await t.press(.enter, thenWaitFor: "Please type a number from 1 to 120.")
        try await t.press(.backspace, .backspace, .backspace, thenWaitFor: "› ▏")
        try await t.type("36", thenWaitFor: "› 36▏")
        try await t.press(.enter, thenWaitFor: "Ada is 36.")
        #expect(await t.quit() == 0)
    }

    @Test func iShowsTheStatsScreenOverThePageAsTheReadingStands() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-choicescript-read")
        defer { home.remove() }
        _ = try home.write("game/scenes/startup.txt", Self.startup)
        _ = try home.write("game/scenes/choicescript_stats.txt", Self.stats)
        let t = HeadlessReading.read(home.url.appendingPathComponent("game").path, home: home, width: 80, height: 24)
        try await t.waitUntil("the title page") { $0.contains("The Shore") && $0.contains("i stats") }
        try await t.press(.character(" "), thenWaitFor: "1. Lift the boat.")
        let shown = try await t.press(.character("i"), thenWaitFor: "Strength: 40%")
        #expect(shown.contains("Your stats."))
        #expect(shown.contains("██████████░░░░░░░░░░░░░░"))  // 40% of 24 cells
        let closed = try await t.press(.character("x"), thenWaitFor: "1. Lift the boat.")
        #expect(!closed.contains("Strength: 40%"))
        try await t.type("1", thenWaitFor: "1. Row out.")
        try await t.press(.character("i"), thenWaitFor: "Strength: 57%")
        try await t.press(.character("x"), thenWaitFor: "1. Row out.")
        try await t.press(.character("?"), thenWaitFor: "stats: the story's own page")
        try await t.press(.character("x"), thenWaitFor: "1. Row out.")  // any key closes the help (q too)
        #expect(await t.quit() == 0)
    }
}
