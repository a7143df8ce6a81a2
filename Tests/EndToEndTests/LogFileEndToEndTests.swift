import Foundation
import PajamaStorage
import PajamaTestSupport
import Testing

/// The log file of the real binary: under the `XDG_STATE_HOME` the test sets, the reason of a failed load at
/// the default level, and what `--log-level` adds. What is logged does not depend on the terminal: the
/// binary reads in plain mode here, its input from a pipe.
@Suite(.serialized) struct LogFileEndToEndTests {
    let pajama = PackagePaths.executable("pajama").path
    let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path

    /// The log's text once a line containing `text` is there (nil when none came within 30 s).
    func waitForLog(_ url: URL, containing text: String) -> String? {
        var log = ""
        let found = Poll.until(timeout: 30) {
            log = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return log.contains(text)
        }
        return found ? log : nil
    }

    /// Runs `pajama arguments` in plain mode, its files under `home` but its log under `state`, with `input`.
    func read(_ arguments: [String], home: TemporaryDirectory, state: URL, input: String) throws -> ChildProcess.Result {
        var environment = Paths.environment(home: home.path)
        environment["XDG_STATE_HOME"] = state.path
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        return try ChildProcess.run(pajama, arguments, environment: environment, timeout: 90, input: input)
    }

    @Test func aFailedLoadWritesItsReasonToTheLogUnderXDGStateHome() throws {
        let copy = try TemporaryDirectory(prefix: "pajama-log-e2e")
        defer { copy.remove() }
        let folder = copy.url.appendingPathComponent("lantern-keeper")
        try FileManager.default.copyItem(atPath: story, toPath: folder.path)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("beats/stairs.json"))
        let state = copy.url.appendingPathComponent("my-state")
        // The choice leads into the missing beat: the page cannot be shown (plain mode says why); then q.
        let run = try read(["read", "--no-sound", "--start", "storm/what_now", folder.path], home: copy, state: state, input: "1\nq\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("What will Mina do?") && run.stdout.contains("Cannot show this page: beat stairs is missing"), "\(run.stdout)")
        let logFile = state.appendingPathComponent("pajama/pajama.log")
        let log = try #require(waitForLog(logFile, containing: "cannot load beat stairs"), "no log at \(logFile.path)")
        let line = try #require(log.split(separator: "\n").first { $0.contains("cannot load beat stairs") })
        #expect(line.contains(" error pajama.loading: "), "\(line)")
        #expect(line.contains("is missing from the story") && line.contains("kind=notFound"), "\(line)")
        // The default level (warning) leaves out what went well.
        #expect(!log.contains("opened story"), "\(log)")
    }

    @Test func logLevelInfoAddsTheStoryOpenedAndItsSource() throws {
        let state = try TemporaryDirectory(prefix: "pajama-log-info")
        defer { state.remove() }
        let run = try read(["read", "--no-sound", "--log-level", "info", story], home: state, state: state.url.appendingPathComponent("my-state"),
                           input: "q\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("A short story"), "\(run.stdout)")
        let log = try #require(waitForLog(state.url.appendingPathComponent("my-state/pajama/pajama.log"), containing: "opened story"))
        #expect(log.contains(" info pajama.loading: opened story lantern-keeper "), "\(log)")
        #expect(log.contains("source=\(story)"), "\(log)")
    }

    /// With no sound server the log says once that sound is off, not a line per sound, and never calls a
    /// local file a network problem.
    @Test func noSoundServerIsOneLineInTheLogNotOnePerSound() throws {
        let home = try TemporaryDirectory(prefix: "pajama-log-no-server")
        defer { home.remove() }
        var environment = Paths.environment(home: home.path)
        environment["PULSE_SERVER"] = "unix:/nonexistent"
        environment["LANG"] = "C.UTF-8"
        let input = String(repeating: "\n", count: 12) + "1\n" + String(repeating: "\n", count: 12) + "q\n"
        let result = try ChildProcess.run(pajama, ["read", "--plain", story], environment: environment, timeout: 90, input: input)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let log = (try? String(contentsOfFile: home.path + "/state/pajama/pajama.log", encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n")
        #expect(lines.filter { $0.contains("sound is off") }.count == 1, "\(log)")
        #expect(!log.contains("network problem"), "\(log)")
        #expect(!lines.contains { $0.contains("cannot load") && ($0.contains(".ogg") || $0.contains(".wav")) }, "\(log)")
    }

    @Test func anUnknownLogLevelIsAUsageError() throws {
        let result = try ChildProcess.run(pajama, ["read", "--log-level", "loud", story])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--log-level"), "\(result.stderr)")
    }
}
