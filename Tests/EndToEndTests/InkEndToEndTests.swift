import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// An ink story (Stories/ferry-cat) on the real binary (docs/ink.md): `pajama play` and `pajama validate`
/// on the file and over HTTP (reading it: PajamaReaderTests.InkReadingTests; co-reading it: PajamaReaderTests.CoReadingTests).
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
