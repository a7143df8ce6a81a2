import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// An ink story written for Inky's web player (docs/ink.md, "Inky's tags", "Markup"), on the real binary:
/// `pajama validate` lists the markup the reader does not know. Read on the screen with its background
/// sound, in process: PajamaReaderTests.InkWebTagsReadingTests.
@Suite(.serialized) struct InkWebTagsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    /// The story's folder: the ink file, a text-art picture, a PNG background and a one-second loop.
    static func folder() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "pajama-inky")
        try dir.write("web.ink.json", InkStoryFixtures.webOnScreen)
        try dir.write("images/harbour.txt", "~~ HARBOUR ART ~~\n  |\\  /|  \n")
        try dir.write("images/bg.png", Data(PNGFile.rgba(width: 4, height: 4, pixels: [UInt8](repeating: 200, count: 64))))
        try dir.write("sounds/rain.wav", Data(TestSound.wav(seconds: 1.0, frequency: 330)))
        return dir
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
