import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// A Twine story (Twee 3, Harlowe) on the real binary (docs/twine.md): `pajama play` and `pajama validate`
/// (read, and co-read by an owner and followers, in process: PajamaReaderTests.TwineReadingTests and
/// CoReadingTests).
@Suite(.serialized) struct TwineEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

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

    static func folder() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-twine-e2e")
        _ = try dir.write("tide-mill.twee", twee)
        _ = try dir.write("images/mill.txt", "==[ MILL ART ]==\n  |~~|  \n")
        return dir
    }

    func run(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, arguments, environment: environment)
    }

    /// `(text-colour:)` and aligners on the screen: the colour as a 256-colour terminal shows it, a colour
    /// too dark for the terminal's (assumed dark) background in the theme's colour, and the aligned lines.
    @Test func coloursAndAlignmentOnTheScreen() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-twine-colours")
        defer { dir.remove() }
        _ = try dir.write("colours.twee", """
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
        let home = try TemporaryDirectory(prefix: "pajama-twine-colours-home")
        defer { home.remove() }
        let width = 100
        let t = try TmuxSession([pajama, "read", "--no-sound", dir.path], width: width, height: 30, home: home)
        defer { t.stop() }
        try t.waitFor("Colours")
        try t.press("Space", thenWaitFor: "Signed")
        // Harlowe's red (#e61919) is colour 160 of the 256; black on the dark terminal is drawn in the theme's colour.
        #expect(t.foreground(at: "crimson") == "38;5;160", "\(t.screenWithColours())")
        #expect(t.foreground(at: "unseen") == nil, "\(t.screenWithColours())")
        #expect(t.foreground(at: "Plain") == nil, "\(t.screenWithColours())")
        let left = try #require(t.column(of: "Plain words")), centred = try #require(t.column(of: "Centred")), signed = try #require(t.column(of: "Signed"))
        // The text column: 76 cells (the widest a line gets) from `left`.
        #expect(signed + "Signed".count == left + 76, "\(t.screen())")
        #expect(centred == left + (76 - "Centred".count) / 2, "\(t.screen())")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func playAndValidate() throws {
        let dir = try Self.folder()
        defer { dir.remove() }
        let home = try TemporaryDirectory(prefix: "pajama-twine-play")
        defer { home.remove() }
        let sea = try run(["play", dir.path, "--choices", "3"], home: home)
        #expect(sea.status == 0, "\(sea.stderr)")
        let lines = sea.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "The Tide Mill")
        #expect(lines.contains("The tide mill creaks."))
        #expect(lines.contains("> 3. Walk to the sea"))
        #expect(lines.contains("The water is cold and grey. The end."))
        let validate = try run(["validate", dir.path], home: home)
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.contains("tide-mill: 0 errors, 0 warnings"), "\(validate.stdout)")
        _ = try dir.write("images/mill.txt", Data())
        try FileManager.default.removeItem(atPath: dir.path + "/images/mill.txt")
        let missing = try run(["validate", dir.path], home: home)
        #expect(missing.status != 0)
        #expect(missing.stdout.contains("passage \"Mill\": images/mill.txt: the file does not exist"), "\(missing.stdout)")
    }
}
