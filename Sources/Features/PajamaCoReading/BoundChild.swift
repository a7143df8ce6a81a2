import CSpawn
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// A child process bound to this one's life: started (`pajama_spawn_bound`) from a thread of its own that
/// waits for it, with `PR_SET_PDEATHSIG`, so it is sent `deathSignal` when this process ends, however it ends
/// (SIGKILL included). Its output goes to a log file; its standard input is /dev/null; it leads a process group
/// of its own. A relay's nginx (`RelayNode`) is one; the relay tests' Redis is another.
public final class BoundChild: Sendable {
    /// Why a child could not start.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    private enum State: Sendable {
        case idle
        case starting
        case running(pid: pid_t)
        /// The child ended; how (`wait`'s status in words).
        case ended(String)
    }

    public let executable: String
    public let arguments: [String]
    /// Where its standard output and error go (appended).
    public let log: String
    private let state = Locked(State.idle)
    /// Resumed when the child ends (each waiter once).
    private let waiters = Locked<[CheckedContinuation<String, Never>]>([])

    /// `arguments` without the program's name (argv[0] is `executable`).
    public init(executable: String, arguments: [String], log: String) {
        self.executable = executable
        self.arguments = arguments
        self.log = log
    }

    /// The child's pid while it runs.
    public var pid: pid_t? {
        if case .running(let pid) = state.withLock({ $0 }) { return pid }
        return nil
    }

    /// How the child ended, once it has.
    public var endedHow: String? {
        if case .ended(let how) = state.withLock({ $0 }) { return how }
        return nil
    }

    /// Starts the child (once); returns its pid, or throws why it could not be started. `environment`: its
    /// whole environment.
    @discardableResult
    public func start(environment: [String] = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"], deathSignal: Int32 = SIGTERM) async throws -> pid_t {
        guard state.withLock({ state -> Bool in
            guard case .idle = state else { return false }
            state = .starting
            return true
        }) else { throw Failure(description: "\(executable) was already started") }
        let logFd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard logFd >= 0 else {
            let reason = String(cString: strerror(errno))
            ended("its log \(log) cannot be opened: \(reason)")
            throw Failure(description: "cannot open \(log): \(reason)")
        }
        let executable = executable, argv = [executable] + arguments
        let ready = AsyncStream<pid_t>.makeStream()
        let started = startDetachedThread(named: "pajama-child") { [self] in
            let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
            let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
            let pid = pajama_spawn_bound(executable, cArguments, cEnvironment, logFd, deathSignal)
            let failure = errno
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
            close(logFd)
            guard pid > 0 else {
                self.ended("it could not be started: \(String(cString: strerror(failure)))")
                ready.continuation.finish()
                return
            }
            self.state.withLock { $0 = .running(pid: pid) }
            ready.continuation.yield(pid)
            ready.continuation.finish()
            // This thread lives as long as the child (its parent-death signal is bound to the thread).
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let how = (status & 0x7F) == 0 ? "it exited with status \((status >> 8) & 0xFF)" : "it was killed by signal \(status & 0x7F)"
            self.ended(how)
        }
        guard started else {
            close(logFd)
            ended("no thread could be started for it")
            throw Failure(description: "cannot start a thread for \(executable)")
        }
        var iterator = ready.stream.makeAsyncIterator()
        guard let pid = await iterator.next() else {
            throw Failure(description: "\(executable): \(endedHow ?? "it did not start")")
        }
        return pid
    }

    /// Waits until the child ends (at once if it has); returns how it ended.
    public func waitUntilEnded() async -> String {
        await withCheckedContinuation { continuation in
            let now: String? = state.withLock { state in
                if case .ended(let how) = state { return how }
                waiters.withLock { $0.append(continuation) }
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    private func ended(_ how: String) {
        let waiting = state.withLock { (state: inout State) -> [CheckedContinuation<String, Never>] in
            state = State.ended(how)
            return waiters.withLock { list in defer { list = [] }; return list }
        }
        for waiter in waiting { waiter.resume(returning: how) }
    }

    /// Stops the child (`signal`; SIGKILL to its process group after `patience`) and waits for it.
    public func stop(signal: Int32 = SIGTERM, patience: Duration = .seconds(5)) async {
        guard let pid else { return }
        kill(pid, signal)
        let stopped = Locked(false)
        await CoReadingHost.first(within: patience) { [self] in
            _ = await waitUntilEnded()
            stopped.withLock { $0 = true }
        }
        if !stopped.withLock({ $0 }) {
            kill(-pid, SIGKILL)
            _ = await waitUntilEnded()
        }
    }

    /// Kills the child's process group at once (SIGKILL; tests: a node that dies) and waits for it.
    public func kill9() async {
        guard let pid else { return }
        kill(-pid, SIGKILL)
        _ = await waitUntilEnded()
    }
}
