import Foundation
import PajamaStorage
import PajamaJSON
import PajamaTestSupport
import Testing

/// `pajama test` as a CI step runs it (the real binary, no terminal): exit 0 for a bundled story with no
/// problem, 1 with the problem and its replay line, 2 for what is no story; `--json` and `--junit FILE`
/// (docs/testing.md).
@Suite struct StoryTestCommandEndToEndTests {
    static func pajama(_ arguments: [String], home: TemporaryDirectory) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home.path) { environment[name] = value }
        return try ChildProcess.run(PackagePaths.executable("pajama").path, arguments, environment: environment, timeout: 120)
    }

    @Test func exitCodesJSONAndJUnit() throws {
        let home = try TemporaryDirectory(prefix: "pajama-test-command")
        defer { home.remove() }
        let lantern = PackagePaths.root.appendingPathComponent("Stories/lantern-keeper").path
        let clean = try Self.pajama(["test", lantern, "--runs", "100", "--jobs", "2"], home: home)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("The Lantern Keeper: 100 random runs (seed 0)"))
        #expect(clean.stdout.contains("beats: 11 of 11 reached (100.0%)"))
        #expect(clean.stdout.contains("problems: none"))
        #expect(clean.stderr.isEmpty, "no progress bar on a pipe: \(clean.stderr)")

        // The same story with one picture gone: exit 1, the problem and the way to it.
        let copy = home.path + "/lantern"
        try FileManager.default.copyItem(atPath: lantern, toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/assets/images/harbor.png")
        let junit = home.path + "/report.xml"
        let broken = try Self.pajama(["test", copy, "--runs", "60", "--json", "--junit", junit], home: home)
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        let json = try JSONParser.parse(Array(broken.stdout.utf8))
        let problem = try #require(json["problems"]?.arrayValue?.first)
        #expect(problem["kind"]?.stringValue == "missing-asset")
        #expect(problem["message"]?.stringValue == "the picture assets/images/harbor.png is not in the story")
        let replay = try #require(problem["replay"]?.stringValue)
        #expect(replay.hasPrefix("pajama play \(copy) --choices "))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("name=\"no missing pictures or sounds\">\n      <failure message=\"beat "), "\(xml)")

        // The replay line reads the story to the page that names the picture.
        let choices = String(replay.split(separator: " ").last ?? "")
        let played = try Self.pajama(["play", copy, "--choices", choices], home: home)
        #expect(played.status == 0 && played.stderr.contains("harbor.png"), "\(played.stderr)")

        let nothing = try Self.pajama(["test", home.path + "/no-such-story"], home: home)
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("no-such-story"))
    }
}
