import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// An ink story (Stories/ferry-cat) read as `pajama read` reads it (docs/ink.md), in process: a choice,
/// back, quit and resume on the same page; from the library; over HTTP with its picture.
@MainActor @Suite struct InkReadingTests {
    let folder = PackagePaths.stories.appendingPathComponent("ferry-cat")
    var file: String { folder.appendingPathComponent("ferry-cat.ink.json").path }

    @Test func aChoiceBackQuitAndResumeOnTheSamePage() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink")
        defer { home.remove() }
        let t = HeadlessReading.read(file, home: home)
        try await t.waitFor("The Pajama team")
        try await t.press(.character(" "), thenWaitFor: "Every morning the ferry")
        try await t.press(.character(" "), thenWaitFor: "2. Stay aboard and watch the gulls")
        try await t.type("2", thenWaitFor: "Pim sat very still")
        try await t.press(.left, thenWaitFor: "1. Jump back to the pier")
        try await t.type("1", thenWaitFor: "Pim landed on the warm planks")
        #expect(await t.quit() == 0)
        // The reading has ended: its last save is the page it quit on.
        let saved = try await t.waitForProgress("ferry-cat") { $0.location.beatId.hasPrefix("i-") }

        // The same page again, in a new reading; back still leads to the choices.
        let again = HeadlessReading.read(file, home: home)
        try await again.waitFor("Pim landed on the warm planks")
        #expect(try await again.waitForProgress("ferry-cat") { _ in true }.location.beatId == saved.location.beatId)
        try await again.press(.left, thenWaitFor: "2. Stay aboard and watch the gulls")
        #expect(await again.quit() == 0)
    }

    @Test func theLibraryListsAndOpensTheInkStory() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-library")
        defer { home.remove() }
        let t = HeadlessReading.library(PackagePaths.stories.path, home: home)
        try await t.waitFor("The Ferry Cat")
        t.terminal.push(.down)  // the second story by title
        try await t.press(.enter, thenWaitFor: "1 page read")  // the title page (the library shows the title and author too)
        try await t.press(.character(" "), thenWaitFor: "Every morning the ferry")
        try await t.type("q", thenWaitFor: "The Lantern Keeper")  // back in the library
        #expect(await t.quit() == 0)
    }

    @Test func readOverHTTPWithItsPicture() async throws {
        let server = try await TestHTTPServer(root: folder)
        defer { server.stopSoon() }
        let home = try TemporaryDirectory(prefix: "pajama-ink-http")
        defer { home.remove() }
        let t = HeadlessReading.read(server.baseURL + "/ferry-cat.ink.json", home: home)
        try await t.waitUntil("the title page") { $0.contains("The Pajama team") && $0.contains("1 page read") }
        try await t.press(.character(" "), thenWaitFor: "Every morning the ferry")
        // The picture comes over HTTP too (an important picture: the text may be shown first) and is drawn.
        try await t.waitUntil("the ferry picture drawn above the text") { $0.contains("▀") && $0.contains("Every morning the ferry") }
        #expect(await t.quit() == 0)
    }
}
