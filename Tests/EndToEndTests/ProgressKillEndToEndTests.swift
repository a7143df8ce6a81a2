import Foundation
import PajamaModel
import PajamaStorage
import PajamaTestSupport
import Testing

/// The fault matrix's progress row (issue 11, section 4): a child process saves progress with the real
/// `ProgressStore` in a loop (`pajama-bench --save-progress-forever`) and is SIGKILLed at a random
/// point, 200 times; every time the file left behind is one whole save, never torn or mixed.
@Suite(.serialized) struct ProgressKillEndToEndTests {
    /// The same progress the child writes for save `n` (Sources/Executables/pajama-bench/ProgressSaveLoop.swift).
    static func progress(_ n: Int) -> ReadingProgress {
        let history = (0...(n % 200)).map { StoryLocation(beatId: "beat\($0)", pageId: "page\(n)") }
        return ReadingProgress(location: StoryLocation(beatId: "now", pageId: "page\(n)"), history: history, pagesRead: n)
    }

    /// Reads the file without moving it aside (the child may be mid-save: a rename is atomic, so a read
    /// sees a whole file or none).
    static func savedCount(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONDecoder().decode(ReadingProgress.self, from: data))?.pagesRead
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func spawn(_ arguments: [String]) throws -> pid_t {
        let executable = PackagePaths.executable("pajama-bench").path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withClean { posix_spawn(&pid, executable, &actions, &$0, argv, environ) }
        guard spawned == 0 else { throw SpawnFailure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// The rounds block their thread (polling the file, waiting for the child) for seconds: they run on
    /// a thread of their own, not on one of the cooperative pool's two, which other suites' tasks need.
    static let executor = ThreadTaskExecutor(name: "pajama-progress-kill")

    @Test func aSaveKilledAtAnyPointLeavesTheOldOrTheNewFileNeverATornOne() async throws {
        try await withTaskExecutorPreference(Self.executor) { try Self.killRounds() }
    }

    static func killRounds() throws {
        let dir = try TemporaryDirectory(prefix: "pajama-progress-kill")
        defer { dir.remove() }
        let file = dir.path + "/s.json"
        var generator = SystemRandomNumberGenerator()
        var killedAfter: [Int] = []
        for round in 0..<200 {
            unlink(file)
            let pid = try spawn(["--save-progress-forever", dir.path])
            // Kill once the child has got at least `target` saves done: the kill lands wherever the
            // child is in its next save (writing, fsyncing, renaming), a different point each round.
            let target = Int.random(in: 1...25, using: &generator)
            let reached = Poll.until(timeout: 60, interval: 500) { (savedCount(file) ?? 0) >= target }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            #expect(reached, "round \(round): the child never saved \(target) times")
            #expect((status & 0x7F) == SIGKILL, "round \(round): the child ended by itself (status \(status))")
            let (saved, warning) = ProgressStore(folder: dir.url).load(storyId: "s")
            #expect(warning == nil, "round \(round): \(warning ?? "")")
            let progress = try #require(saved, "round \(round): no progress file after the kill")
            #expect(progress.pagesRead >= target, "round \(round): an older file than one already seen whole")
            #expect(progress == Self.progress(progress.pagesRead), "round \(round): a mixed file")
            killedAfter.append(progress.pagesRead)
        }
        #expect(killedAfter.count == 200)
        // A killed save leaves its temporary file; the next save cleans up after dead processes, so the
        // folder never fills with them: only the last killed child's can be left.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.count <= 1, "\(leftovers.count) temporary files left: \(leftovers.prefix(5))")
    }
}
