import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// A story where a library was expected and a library where a story was (issue 27 item 5): each does what
/// was meant, or says what the folder is and the command that reads it.
@Suite(.serialized) struct FolderKindsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let stories = PackagePaths.stories.path
    var story: String { PackagePaths.stories.appendingPathComponent("lantern-keeper").path }

    /// Runs `arguments` with no terminal (the reader in plain mode; its input `q`), its files under a fresh home.
    func runWithoutTerminal(_ arguments: [String]) throws -> ChildProcess.Result {
        let home = try TemporaryDirectory(prefix: "pajama-folder-kinds")
        defer { home.remove() }
        var environment = Paths.environment(home: home.path)
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        return try ChildProcess.run(pajama, arguments, environment: environment, timeout: 60, input: "q\n")
    }

    @Test func theLibraryCommandOnAStoryFolderReadsTheStory() throws {
        let run = try runWithoutTerminal(["--no-sound", story])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("A short story for a stormy night"), "\(run.stdout)")
        #expect(!run.stdout.contains("Read which story?"), "the story, not a library: \(run.stdout)")
    }

    @Test func readOnAFolderOfStoriesOpensItsLibrary() throws {
        let run = try runWithoutTerminal(["read", "--no-sound", stories])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The library of the folder (plain mode's numbered list, under the folder's name), then q.
        #expect(run.stdout.contains("Read which story?") && run.stdout.contains(". The Lantern Keeper (") && run.stdout.contains(". The Ferry Cat ("),
                "\(run.stdout)")
    }

    @Test func readWithAStorysOptionsOnAFolderOfStoriesSaysWhatItIs() throws {
        let run = try ChildProcess.run(pajama, ["read", "--no-sound", "--restart", stories], timeout: 60)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("is a folder of 4 stories, not a story: `pajama \(stories)` shows them, `pajama read \(stories)/"),
                "\(run.stderr)")
    }

    @Test func listOnAStoryFolderListsThatStoryAndSaysWhatTheFolderIs() throws {
        let run = try ChildProcess.run(pajama, ["list", story], timeout: 60)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("no stories"), "\(run.stdout)")
        #expect(run.stdout.contains("lantern-keeper  The Lantern Keeper"), "\(run.stdout)")
        #expect(run.stderr.contains("is a story, not a folder of stories (`pajama read \(story)` reads it)"), "\(run.stderr)")
    }
}
