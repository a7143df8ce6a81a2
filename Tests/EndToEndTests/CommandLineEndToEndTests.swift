import Foundation
import PajamaCore
import PajamaTestSupport
import Testing

/// `pajama validate` and `pajama list` as a user runs them: the real binary, its output and exit codes.
@Suite struct CommandLineEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    @Test(arguments: ["lantern-keeper", "clockwork-atlas", "night-garden"])
    func bundledStoriesValidateClean(_ id: String) throws {
        let result = try ChildProcess.run(pajama, ["validate", PackagePaths.stories.appendingPathComponent(id).path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(id): 0 errors"))
    }

    @Test func validateOverHTTPAndAsJSON() async throws {
        let server = try await TestHTTPServer(root: PackagePaths.stories)
        defer { server.stopSoon() }
        let result = try ChildProcess.run(pajama, ["validate", "--json", server.baseURL + "/lantern-keeper/"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["story"] as? String == "lantern-keeper")
        #expect(object?["errors"] as? Int == 0)
    }

    @Test func brokenStoryExitsOneAndNamesTheFileBeatPageAndField() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-cli-broken")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: PackagePaths.stories.appendingPathComponent("lantern-keeper").path,
                                         toPath: dir.path + "/story")
        let beat = dir.path + "/story/beats/start.json"
        let text = try String(contentsOfFile: beat, encoding: .utf8)
        let image = try #require(text.range(of: #""imageUrl": ?"[^"]*""#, options: .regularExpression))
        try text.replacingCharacters(in: image, with: #""imageUrl": "../../etc/passwd""#).write(toFile: beat, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(pajama, ["validate", dir.path + "/story"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("beats/start.json"))
        #expect(result.stdout.contains("imageUrl"))
        #expect(result.stdout.contains(".."))
        let json = try ChildProcess.run(pajama, ["validate", "--json", dir.path + "/story"])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["beat"] as? String == "start" && ($0["path"] as? String ?? "").hasSuffix("imageUrl") })
    }

    @Test func unreadableStoryExitsTwo() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-cli-empty")
        defer { dir.remove() }
        let result = try ChildProcess.run(pajama, ["validate", dir.path])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let missing = try ChildProcess.run(pajama, ["validate", "http://127.0.0.1:9/nothing/"])
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
    }

    @Test func listShowsEveryBundledStoryAndWhetherItValidates() throws {
        let result = try ChildProcess.run(pajama, ["list", PackagePaths.stories.path])
        #expect(result.status == 0)
        for title in ["The Lantern Keeper", "The Clockwork Atlas", "The Night Garden", "The Ferry Cat"] { #expect(result.stdout.contains(title)) }
        let rows = result.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { $0.hasSuffix("yes") }, "\(result.stdout)")
        // $PAJAMA_STORIES is the default folder.
        var env = ProcessInfo.processInfo.environment
        env["PAJAMA_STORIES"] = PackagePaths.stories.path
        let fromEnv = try ChildProcess.run(pajama, ["list"], environment: env)
        #expect(fromEnv.stdout == result.stdout)
    }

    @Test func withoutATerminalTheReaderReadsInPlainMode() throws {
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let home = try TemporaryDirectory(prefix: "pajama-no-terminal")
        defer { home.remove() }
        var env = Paths.environment(home: home.path)
        env["PULSE_SERVER"] = "unix:/nonexistent"
        // Standard input is /dev/null: the first page, then the end of the input quits.
        let result = try ChildProcess.run(pajama, ["read", "--no-sound", story], environment: env, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("A short story for a stormy night"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"), "\(result.stdout.debugDescription)")
    }

    @Test func anUnknownThemeIsAnErrorThatListsTheThemes() throws {
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let t = try TmuxSession([pajama, "read", "--theme", "nosuch", story], width: 120)
        defer { t.stop() }
        let screen = try t.waitFor("[exited 64]")
        #expect(screen.contains("no theme named \"nosuch\"") && screen.contains("night"))
    }
}
