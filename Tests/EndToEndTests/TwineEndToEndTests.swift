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
