import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage
import PajamaFormats
import PajamaJSON
import PajamaReader
import PajamaStoryTest

/// `pajama test <story>`: an author's test run of a story in any format: random runs or an exhaustive walk,
/// with the endings, coverage and problems it found (docs/testing.md).
struct TestCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Test a story: random runs or every state; endings, coverage, dead ends, errors, missing files.",
        discussion: """
            Exit status: 0 when every run reached an ending without a problem, 1 when a problem was found (a \
            dead end, a runtime error, a beat that cannot be read, a missing picture or sound on a page reached, a \
            loop without an ending within --max-steps, or no ending reached at all), 2 when the story cannot be \
            read. Each problem comes with the `pajama play` line that reads the story to it. See docs/testing.md.
            """)

    @Argument(help: "The story folder, its base URL, a story file (ink, Twine...), or the id of a story `pajama list` shows.")
    var story: String

    @Option(help: "Random runs, each from the start to an ending (or a problem, or --max-steps).")
    var runs: Int = 1000

    @Option(help: "The seed of the runs' choices and of the story's own randomness: the same seed gives the same report.")
    var seed: Int = 0

    @Option(help: "The most beats one run reads before it is reported as a loop without an ending.")
    var maxSteps: Int = 500

    @Flag(help: "Walk every distinct story state reachable from the start instead of random runs.")
    var exhaustive = false

    @Option(help: "The most states --exhaustive walks; the report says whether that was all of them.")
    var maxStates: Int = 10_000

    @Option(help: "Runs in parallel, each with the story opened for it (default: the number of cores). The report does not depend on it.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Print the report as JSON (coverage, endings, problems).")
    var json = false

    @Option(help: "Also write the report as JUnit XML to this file, for a CI server.")
    var junit: String?

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard maxSteps >= 1 else { throw ValidationError("--max-steps must be at least 1") }
        guard maxStates >= 1 else { throw ValidationError("--max-states must be at least 1") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
    }

    func run(paths: Paths) async throws {
        guard let resolved = StoryArgument.open(story, paths: paths) else { throw ExitCode(2) }
        let options = StoryTestOptions(runs: runs, seed: seed, maxSteps: maxSteps, exhaustive: exhaustive, maxStates: maxStates, jobs: jobs)
        let seed = seed
        let runner = StoryTestRunner(story: story, options: options) { await StorySources.open(resolved, seed: seed) }
        let bar = ProgressBar(shown: isatty(STDERR_FILENO) == 1 && (exhaustive ? maxStates : runs) >= 200)
        let show: @Sendable (Int, Int) -> Void = { done, total in bar.show(done, of: total) }
        let progress = bar.shown ? show : nil
        let report: StoryTestReport
        do throws(StoryTestRunner.Unreadable) {
            report = try await runner.run(progress: progress)
        } catch {
            bar.clear()
            ReaderApp.printError("pajama: cannot test \(StoryFormatError.printable(story)): \(error.message)")
            throw ExitCode(2)
        }
        bar.clear()
        if let junit {
            if let problem = AtomicFile.write(Data(report.junit.utf8), to: URL(fileURLWithPath: junit)) {
                ReaderApp.printError("pajama: cannot write the JUnit report: \(problem)")
                throw ExitCode(2)
            }
        }
        if json {
            print(try JSONValueEncoder.pretty.encodeString(report))
        } else {
            print(report.summary, terminator: "")
        }
        if !report.passed { throw ExitCode(1) }
    }
}

/// One line on standard error that redraws itself, for long runs on a terminal (never on a pipe).
private final class ProgressBar: Sendable {
    let shown: Bool
    private let last = Locked(-1)

    init(shown: Bool) { self.shown = shown }

    func show(_ done: Int, of total: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        guard last.withLock({ last in
            defer { last = percent }
            return last != percent
        }) else { return }
        let width = 30
        let filled = width * percent / 100
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total)"
        StandardError.write(line)
    }

    func clear() {
        guard shown else { return }
        StandardError.write("\r\u{1B}[K")
    }
}
