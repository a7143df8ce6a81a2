import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// The mistakes a new user makes on the command line, on the real binary: each gets a true message and
/// the right exit code, before any screen opens (so no terminal is needed: the binary runs with pipes).
/// A fresh history from `--start` is read in process: PajamaReaderTests.ReadingAcrossSessionsTests.
@Suite(.serialized) struct CommandLineMistakesEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// Runs `arguments` with no terminal (standard input /dev/null: what the reader would read quits it at
    /// once), its files under a fresh home; expects exit `status` and returns what it printed, both streams.
    func runWithoutTerminal(_ arguments: [String], status: Int32) throws -> String {
        let home = try TemporaryDirectory(prefix: "pajama-mistake")
        defer { home.remove() }
        var environment = Paths.environment(home: home.path)
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        let run = try ChildProcess.run(pajama, arguments, environment: environment, timeout: 60)
        #expect(run.status == status, "\(run.stdout)\(run.stderr)")
        return run.stderr + run.stdout
    }

    // MARK: --start

    @Test func anUnknownStartBeatExits64NamingTheStorysBeats() throws {
        let screen = try runWithoutTerminal(["read", "--no-sound", "--start", "nosuch", story], status: 64)
        #expect(screen.contains("no beat \"nosuch\""), "\(screen)")
        #expect(screen.contains("start, storm, stairs"), "\(screen)")
    }

    @Test func anUnknownStartPageExits64NamingTheBeatsPages() throws {
        let screen = try runWithoutTerminal(["read", "--no-sound", "--start", "storm/nosuch", story], status: 64)
        #expect(screen.contains("no page \"nosuch\" in beat \"storm\""), "\(screen)")
        #expect(screen.contains("dark, what_now"), "\(screen)")
        #expect(!screen.contains("no longer in"), "\(screen)")
    }

    // MARK: Opening a story

    @Test func aMissingFolderAFileAndAnEmptyFolderEachSayWhatIsWrong() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-open")
        defer { dir.remove() }
        try dir.write("notes.txt", "hello")
        try FileManager.default.createDirectory(atPath: dir.path + "/empty", withIntermediateDirectories: true)

        let missing = try ChildProcess.run(pajama, ["validate", dir.path + "/nowhere"])
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("there is no such folder"), "\(missing.stdout)")
        let file = try ChildProcess.run(pajama, ["validate", dir.path + "/notes.txt"])
        #expect(file.stdout.contains("it is a file, not a story folder"), "\(file.stdout)")
        let empty = try ChildProcess.run(pajama, ["validate", dir.path + "/empty"])
        #expect(empty.stdout.contains("the folder has no story.json"), "\(empty.stdout)")

        let read = try runWithoutTerminal(["read", "--no-sound", dir.path + "/nowhere"], status: 2)
        #expect(read.contains("there is no such folder") && !read.contains("missing from the story"), "\(read)")
        let readFile = try runWithoutTerminal(["read", "--no-sound", dir.path + "/notes.txt"], status: 2)
        #expect(readFile.contains("it is a file, not a story folder"), "\(readFile)")
        let readEmpty = try runWithoutTerminal(["read", "--no-sound", dir.path + "/empty"], status: 2)
        #expect(readEmpty.contains("the folder has no story.json"), "\(readEmpty)")
    }

    @Test func aPathToStoryJSONOpensItsFolder() throws {
        let validate = try ChildProcess.run(pajama, ["validate", story + "/story.json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains("lantern-keeper: 0 errors"))
        let read = try runWithoutTerminal(["read", "--no-sound", story + "/story.json"], status: 0)
        #expect(read.contains("A short story for a stormy night"), "\(read)")
    }

    @Test func listingAMissingFolderIsAnError() throws {
        let result = try ChildProcess.run(pajama, ["list", "/does/not/exist"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("/does/not/exist") && result.stderr.contains("there is no such folder"), "\(result.stderr)")
    }

    // MARK: Typos and --version

    @Test func anUnknownCommandExits64WithAdvice() throws {
        let typo = try ChildProcess.run(pajama, ["raed", story])
        #expect(typo.status == 64, "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("unknown command 'raed'") && typo.stderr.contains("did you mean 'read'?"), "\(typo.stderr)")
        let frob = try ChildProcess.run(pajama, ["frob"])
        #expect(frob.status == 64, "\(frob.stdout)\(frob.stderr)")
        #expect(frob.stderr.contains("unknown command 'frob'") && frob.stderr.contains("validate"), "\(frob.stderr)")
    }

    /// `pajama FOLDER` is the library, not a mistyped command (without a terminal: its numbered list).
    @Test func anExistingFolderStillOpensTheLibrary() throws {
        let bare = try runWithoutTerminal(["--no-sound", PackagePaths.stories.path], status: 0)
        #expect(bare.contains(". The Lantern Keeper (") && bare.contains("Read which story?"), "\(bare)")
        let explicit = try runWithoutTerminal(["library", "--no-sound", PackagePaths.stories.path], status: 0)
        #expect(explicit.contains(". The Lantern Keeper (") && explicit.contains("Read which story?"), "\(explicit)")
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try ChildProcess.run(pajama, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "pajama 0.2.0\n", "\(result.stdout)")
    }

    // MARK: validate --json

    @Test func validateJSONDoesNotEscapeSlashes() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-json")
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: story, toPath: dir.path + "/story")
        try FileManager.default.removeItem(atPath: dir.path + "/story/assets/images/choice.png")
        let result = try ChildProcess.run(pajama, ["validate", "--json", dir.path + "/story"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"beats/storm.json\""), "\(result.stdout)")
        #expect(!result.stdout.contains("\\/"), "\(result.stdout)")
    }
}

/// The saved progress file's parts the tests look at.
struct SavedProgress: Decodable {
    struct Location: Decodable { var beatId: String; var pageId: String }
    var location: Location?
    var history: [Location]
    var finished: Bool
    var endingsFound: [String]?
}

/// Polls the progress file until it exists and `condition` holds; throws with what it last read.
func waitForProgress(_ path: String, timeout: TimeInterval = TmuxSession.defaultTimeout, _ condition: (SavedProgress) -> Bool) throws -> SavedProgress {
    var last: SavedProgress?
    let held = Poll.until(timeout: timeout, interval: 50_000) {
        guard let data = FileManager.default.contents(atPath: path),
              let saved = try? JSONDecoder().decode(SavedProgress.self, from: data) else { return false }
        last = saved
        return condition(saved)
    }
    if held, let last { return last }
    throw ProgressWaitTimeout(description: "timed out waiting for the progress file \(path); last read: \(String(describing: last))")
}

struct ProgressWaitTimeout: Error, CustomStringConvertible {
    var description: String
}
