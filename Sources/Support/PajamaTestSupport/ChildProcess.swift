import CSpawn
import Foundation

/// Runs a program to completion and collects what it printed (for tests and the bench).
///
/// Uses posix_spawn and waitpid directly, with output going to temporary files rather than pipes, so a
/// daemon the program leaves behind (tmux's server) can never keep the caller waiting. A child gets only its
/// standard input, output and error: every other descriptor of the caller is closed in it, so what other
/// tests hold open meanwhile (sockets, pipes, fifos not marked close-on-exec) neither counts against a
/// child's `ulimit -n` nor keeps another child's pipe from ending.
public struct ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// A helper process that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`; waits at most `timeout`
    /// seconds, then kills it (status -9). `environment` replaces the environment when given. `input` is
    /// its standard input (a pipe it reads to the end), else /dev/null.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        timeout: TimeInterval = 60, input: String? = nil
    ) throws -> Result {
        let tag = "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-out-\(tag)").path
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-err-\(tag)").path
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The input goes through a pipe (not a file): a program that reads a terminal's lines must be
        // able to wait for them. A writer thread feeds it, so a long input never fills the pipe's buffer.
        var inputPipe: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&inputPipe) == 0 else { throw Failure(message: "cannot make a pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
            posix_spawn_file_actions_addclose(&actions, inputPipe[0])
            posix_spawn_file_actions_addclose(&actions, inputPipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = pajama_spawn_close_from(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envStrings = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = envStrings.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withClean { posix_spawnp(&pid, executable, &actions, &$0, argv, envp) }
        if let input {
            signal(SIGPIPE, SIG_IGN)  // a program that stops reading ends the writer with EPIPE, not the caller
            close(inputPipe[0])
            let writeEnd = inputPipe[1]
            let bytes = Array(input.utf8)
            Thread {
                var sent = 0
                while sent < bytes.count {
                    let n = bytes[sent...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { break }  // the program closed its input
                    sent += n
                }
                close(writeEnd)
            }.start()
        }
        guard spawned == 0 else { throw Failure(message: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var killed = false
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { break }
            if Date() > deadline && !killed {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(2_000)
        }
        let exitCode: Int32 = killed ? -9 : ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : -(status & 0x7F))
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Result(status: exitCode, stdout: out, stderr: err)
    }
}

extension ChildProcess {
    /// Starts a long-running program (a server) with its standard output in `outputFile` and its standard
    /// error in `errorFile` (discarded when nil), its input from `inputFile` (a terminal's device, say);
    /// returns its pid. `environment` replaces the environment when given. It starts, as `run`'s programs do,
    /// with nothing blocked and every signal at its default action (`SpawnAttributes`): one that inherited
    /// the test runner's blocked SIGTERM ignored `terminate` until its SIGKILL 2 s later (4 s of every sound
    /// test, for its pactl and parec).
    public static func spawn(
        _ executable: String, _ arguments: [String], inputFile: String = "/dev/null", outputFile: String, errorFile: String? = nil,
        environment: [String: String]? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errorFile, errorFile == outputFile {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errorFile ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        _ = pajama_spawn_close_from(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = SpawnAttributes.withClean { posix_spawnp(&pid, executable, &actions, &$0, argv, envp) }
        guard result == 0 else { throw Failure(message: "cannot start \(executable): \(String(cString: strerror(result)))") }
        return pid
    }

    /// How a spawned program ended, if it has (it is reaped then); nil while it runs.
    public static func exitDescription(_ pid: pid_t) -> String? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r == 0 { return nil }
        if r < 0 { return errno == ECHILD ? "it is gone (already reaped)" : nil }
        if (status & 0x7F) == 0 { return "it exited with status \((status >> 8) & 0xFF)" }
        return "it was killed by signal \(status & 0x7F)"
    }

    /// Stops a spawned program and reaps it (SIGTERM, then SIGKILL after 2 s).
    public static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}
