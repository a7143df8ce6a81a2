import Foundation
import PajamaTestSupport
import Testing

/// A story where a library was expected and a library where a story was (issue 27 item 5): each does what
/// was meant, or says what the folder is and the command that reads it.
@Suite(.serialized) struct FolderKindsEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let stories = PackagePaths.stories.path
    var story: String { PackagePaths.stories.appendingPathComponent("lantern-keeper").path }

    @Test func theLibraryCommandOnAStoryFolderReadsTheStory() throws {
        let t = try TmuxSession([pajama, "--no-sound", story])
        defer { t.stop() }
        try t.waitFor("A short story for a stormy night")
        try t.press("q", thenWaitFor: "[exited 0]")
    }

    @Test func readOnAFolderOfStoriesOpensItsLibrary() throws {
        let t = try TmuxSession([pajama, "read", "--no-sound", stories], width: 100)
        defer { t.stop() }
        try t.waitUntil("the library of the folder") { $0.contains("stories in") && $0.contains("The Lantern Keeper") && $0.contains("The Ferry Cat") }
        try t.press("q", thenWaitFor: "[exited 0]")
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
