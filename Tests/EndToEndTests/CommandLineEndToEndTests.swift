import Foundation
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// `pajama validate` and `pajama list` as a user runs them: the real binary, its output and exit codes.
@Suite struct CommandLineEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path

    @Test(arguments: ["lantern-keeper", "clockwork-atlas", "night-garden"])
    func bundledStoriesValidateClean(_ id: String) throws {
        let result = try ChildProcess.run(pajama, ["validate", PackagePaths.stories.appendingPathComponent(id).path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // 0 warnings: every picture has its alt text (issue 35 item 8), every asset is used.
        #expect(result.stdout.contains("\(id): 0 errors, 0 warnings"), "\(result.stdout)")
    }

    /// `validate` warns of each picture without alt text, naming its beat and page (issue 35 item 8).
    @Test func validateWarnsOfEachPictureWithoutAltText() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-alt")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: PackagePaths.stories.appendingPathComponent("night-garden").path, toPath: dir.path + "/night-garden")
        let pond = dir.path + "/night-garden/beats/pond.json"
        let text = try String(contentsOfFile: pond, encoding: .utf8)
        let without = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"imageAlt\"") }.joined(separator: "\n")
        try without.write(toFile: pond, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(pajama, ["validate", dir.path + "/night-garden"])
        #expect(result.status == 0, "\(result.stdout)")
        let warnings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning:") && $0.contains("no alt text") }
        #expect(warnings.count == 1 && warnings[0].contains("pond") && warnings[0].contains("assets/images/pond.png"), "\(result.stdout)")
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

    /// `pajama list` prints what the library shows: the format, where the reader is (not pages turned), the
    /// endings found of the story's total, when last read; the most recently read first.
    @Test func listPrintsWhereTheReaderIsTheEndingsAndWhenLastRead() throws {
        let home = try TemporaryDirectory(prefix: "pajama-list-standing")
        defer { home.remove() }
        let progress = ProgressStore(folder: URL(fileURLWithPath: home.path + "/data/pajama/progress"))
        let cover = StoryLocation(beatId: "start", pageId: "cover"), rock = StoryLocation(beatId: "start", pageId: "rock")
        let dark = StoryLocation(beatId: "storm", pageId: "dark")
        #expect(progress.save(storyId: "lantern-keeper", ReadingProgress(location: dark, history: [cover, rock, dark], pagesRead: 7,
                                                                          endingsFound: ["home_harbor"], seenPages: [cover, rock, dark].map(SeenPage.init))) == nil)
        let result = try ChildProcess.run(pajama, ["list", PackagePaths.stories.path], environment: Paths.environment(home: home.path))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first?.contains("format") == true && rows.first?.contains("last read") == true, "\(result.stdout)")
        let lantern = try #require(rows.dropFirst().first, "\(result.stdout)")
        #expect(lantern.hasPrefix("lantern-keeper"), "the last read comes first: \(result.stdout)")
        #expect(lantern.contains("Pajama") && lantern.contains("18% seen") && lantern.contains("1 of 2 endings") && lantern.contains("just now"),
                "\(result.stdout)")
        #expect(!result.stdout.contains("page 7"), "\(result.stdout)")
        #expect(rows.contains { $0.hasPrefix("ferry-cat") && $0.contains("ink") && $0.contains("new") && $0.contains("never") }, "\(result.stdout)")
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
        let home = try TemporaryDirectory(prefix: "pajama-theme")
        defer { home.remove() }
        // Checked before any screen opens: no terminal is needed to see it refused.
        let result = try ChildProcess.run(pajama, ["read", "--theme", "nosuch", story], environment: Paths.environment(home: home.path))
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("no theme named \"nosuch\"") && result.stderr.contains("night"), "\(result.stderr)")
    }

    /// The unknown-theme error names where the reader's own themes go: $XDG_CONFIG_HOME/pajama/themes.
    @Test func anUnknownThemeSaysWhereYourThemesGoUnderXDGConfigHome() throws {
        let home = try TemporaryDirectory(prefix: "pajama-theme-home")
        defer { home.remove() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let result = try ChildProcess.run(pajama, ["read", "--theme", "nosuch", story], environment: Paths.environment(home: home.path))
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("yours go in \(home.path)/config/pajama/themes"), "\(result.stderr)")
    }

    /// `read --help` names every kind of story it reads, Twine included.
    @Test func readHelpNamesTwine() throws {
        let result = try ChildProcess.run(pajama, ["read", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Twine") && result.stdout.contains("ink"), "\(result.stdout)")
    }
}
