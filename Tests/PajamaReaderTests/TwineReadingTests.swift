import Foundation
import PajamaReader
import PajamaTerminal
import PajamaTestSupport
import Testing

/// A Twine story (Twee 3, Harlowe) read as `pajama read` reads it (docs/twine.md), in process: its picture,
/// its markup as text, a revealed hook, passage links as choices, and a later reading resuming on the page
/// the first one quit on (its progress saved when it ended).
@MainActor @Suite struct TwineReadingTests {
    static let twee = """
        :: StoryTitle
        The Tide Mill

        :: StoryData
        {"ifid": "6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C30", "format": "Harlowe", "format-version": "3.3.9", "start": "Mill"}

        :: Mill [critical]
        <img src="images/mill.txt" alt="the mill">The ''tide mill'' creaks. (set: $flour to 2)
        |sack>[A sack leans on the wall.] (link: "Open the sack")[(replace: ?sack)[The sack holds $flour loaves of flour.]]
        [[Climb the ladder->Loft]]
        [[Walk to the sea->Sea]]

        :: Loft
        The loft smells of //old grain//. (if: $flour > 1)[You count the sacks below.]
        [[Down again->Mill]]

        :: Sea
        The water is cold and grey. The end.
        """

    @Test func aTwineStoryWithItsPictureARevealedHookALinkAndResume() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-twine")
        defer { home.remove() }
        _ = try home.write("story/tide-mill.twee", Self.twee)
        _ = try home.write("story/images/mill.txt", "==[ MILL ART ]==\n  |~~|  \n")
        let folder = home.url.appendingPathComponent("story").path
        let t = HeadlessReading.read(folder, home: home, width: 100, height: 30)
        try await t.waitUntil("the title page") { $0.contains("The Tide Mill") && $0.contains("1 page read") }  // not the loading frame
        let first = try await t.press(.character(" "), thenWaitFor: "==[ MILL ART ]==")
        #expect(first.contains("The tide mill creaks."))
        #expect(first.contains("A sack leans on the wall."))
        #expect(!first.contains("<img") && !first.contains("''") && !first.contains("(set:"))
        try await t.press(.character(" "), thenWaitFor: "3. Walk to the sea")
        let opened = try await t.type("1", thenWaitFor: "The sack holds 2 loaves of flour.")
        #expect(!opened.contains("A sack leans"))
        try await t.press(.character(" "), thenWaitFor: "1. Climb the ladder")
        try await t.type("1", thenWaitFor: "You count the sacks below.")
        #expect(await t.quit() == 0)
        // A new reading opens on the same page, and back still works.
        let again = HeadlessReading.read(folder, home: home, width: 100, height: 30)
        try await again.waitFor("You count the sacks below.")
        try await again.press(.left, thenWaitFor: "2. Walk to the sea")
        #expect(await again.quit() == 0)
    }

    /// `(text-colour:)` and aligners on the screen: the colour as a 256-colour terminal shows it, a colour
    /// too dark for the terminal's (assumed dark) background in the theme's colour, and the aligned lines.
    @Test func coloursAndAlignmentOnTheScreen() async throws {
        let home = try TemporaryDirectory(prefix: "pajama-twine-colours")
        defer { home.remove() }
        _ = try home.write("story/colours.twee", """
            :: StoryTitle
            Colours

            :: StoryData
            {"ifid": "6A1B7E52-0F0C-4B07-9A0C-3B1F9D1E5C31", "format": "Harlowe", "format-version": "3.3.9", "start": "Start"}

            :: Start
            The (text-colour: red)[crimson] tide and the (text-colour: black)[unseen] rocks.
            Plain words on the left edge of the text.
            =><=
            Centred
            ==>
            Signed
            """)
        let t = HeadlessReading.read(home.url.appendingPathComponent("story").path, home: home, width: 100, height: 30)
        try await t.waitUntil("the title page") { $0.contains("Colours") && $0.contains("1 page read") }  // not the loading frame
        let page = try await t.press(.character(" "), thenWaitFor: "Signed")
        // Harlowe's red (#e61919) is colour 160 of the 256; black on the dark terminal is drawn in the theme's colour.
        let theme = try #require(t.colours(at: "Plain"), "\(page)").fg
        #expect(t.colours(at: "crimson")?.fg == 160, "\(page)")
        #expect(t.cells(of: "unseen")?.cells[0].style.textColor != nil, "the story's black is on the cell")
        #expect(t.colours(at: "unseen")?.fg == theme, "\(page)")
        #expect(theme != 160 && t.cells(of: "Plain")?.cells[0].style.textColor == nil)
        let left = try #require(t.cells(of: "Plain words")?.x), centred = try #require(t.cells(of: "Centred")?.x)
        let signed = try #require(t.cells(of: "Signed")?.x)
        // The text column: 76 cells (the widest a line gets) from `left`.
        #expect(signed + "Signed".count == left + 76, "\(page)")
        #expect(centred == left + (76 - "Centred".count) / 2, "\(page)")
        #expect(await t.quit() == 0)
    }
}
