import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// An ink story (Stories/ferry-cat) on the real binary (docs/ink.md): `pajama play` and `pajama validate`
/// on the file and over HTTP, and co-read by an owner and followers (reading it: PajamaReaderTests.InkReadingTests).
@Suite(.serialized) struct InkEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let folder = PackagePaths.stories.appendingPathComponent("ferry-cat")
    var file: String { folder.appendingPathComponent("ferry-cat.ink.json").path }

    func run(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(pajama, arguments, environment: environment)
    }

    @Test func playPrintsTheTranscriptAndValidatePasses() throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-play")
        defer { home.remove() }
        let pier = try run(["play", file, "--choices", "1"], home: home)
        #expect(pier.status == 0, "\(pier.stderr)")
        let lines = pier.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "The Ferry Cat")
        #expect(lines.contains("> 1. Jump back to the pier for the lunch"))
        #expect(lines.contains("She ran, and jumped, and made it by a whisker."))
        #expect(lines.suffix(2) == ["The End", ""])
        // The folder holding the one ink file opens it too, with the same transcript.
        #expect(try run(["play", folder.path, "--choices", "1"], home: home).stdout == pier.stdout)
        let tooMany = try run(["play", file, "--choices", "3"], home: home)
        #expect(tooMany.status == 1)
        #expect(tooMany.stderr.contains("choice 1 is 3, but beat \"start\", page \"choices\" offers 2 choices"), "\(tooMany.stderr)")

        let validate = try run(["validate", file], home: home)
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.contains("ferry-cat: 0 errors, 0 warnings"), "\(validate.stdout)")
    }

    @Test func aFollowerOfAnInkStorySeesTheOwnersPagesAndALateOneLandsOnTheCurrentOne() throws {
        let port = try CoReadingEndToEndTests().freePort()
        let owner = try TmuxSession([pajama, "host", "--no-sound", "--port", String(port), "--token", "tok-tok-tok-tok-1", "--name", "Olive", file])
        defer { owner.stop() }
        try owner.waitFor("The Pajama team")
        let ann = try TmuxSession([pajama, "join", "--no-sound", "http://127.0.0.1:\(port)/", "--token", "tok-tok-tok-tok-1", "--name", "ann"])
        defer { ann.stop() }
        try ann.waitFor("The Pajama team")
        try owner.waitFor("1 following")
        for (key, shows) in [("Space", "Every morning the ferry"), ("Space", "2. Stay aboard"), ("2", "Pim sat very still")] {
            try owner.press(key, thenWaitFor: shows)
            try ann.waitFor(shows)
        }
        let late = try TmuxSession([pajama, "join", "--no-sound", "http://127.0.0.1:\(port)/", "--token", "tok-tok-tok-tok-1", "--name", "cy"])
        defer { late.stop() }
        try late.waitFor("Pim sat very still")
        try owner.press("Space", thenWaitFor: "That evening the captain")
        for follower in [ann, late] { try follower.waitFor("That evening the captain") }
    }

    @Test func validateNamesAMissingPictureAndItsTag() throws {
        let home = try TemporaryDirectory(prefix: "pajama-ink-validate")
        defer { home.remove() }
        let story = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "images/ferry.png", with: "images/gone.png")
        try home.write("story/tale.ink.json", story)
        let result = try run(["validate", home.path + "/story/tale.ink.json"], home: home)
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: tale.ink.json") && result.stdout.contains("the tag \"# image: images/gone.png\": images/gone.png: the file does not exist"),
                "\(result.stdout)")
    }

    @Test func playOverHTTP() async throws {
        let server = try await TestHTTPServer(root: folder)
        defer { server.stopSoon() }
        let home = try TemporaryDirectory(prefix: "pajama-ink-http")
        defer { home.remove() }
        let url = server.baseURL + "/ferry-cat.ink.json"
        let local = try run(["play", file, "--choices", "2"], home: home)
        let remote = try run(["play", url, "--choices", "2"], home: home)
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout == local.stdout)
    }
}
