import Foundation
import Glibc
import PajamaTestSupport

/// Runs a program on a fresh pseudo-terminal of a given size and times how long it takes until its
/// output contains a marker (the first page drawn), then stops it with SIGTERM.
struct PseudoTerminalRun {
    var executable: String
    var arguments: [String]
    var environment: [String: String]
    var columns = 80
    var rows = 24
    /// One cell in pixels, told through TIOCGWINSZ (nil: the pixel fields are 0, as most ptys leave them).
    var cellPixels: (width: Int, height: Int)?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A program started on its own pseudo-terminal: `master` is our side (its output, its keyboard).
    struct Started {
        let master: Int32
        let pid: pid_t
        /// `now()` just before `posix_spawn`.
        let start: Double

        /// Ends the program with SIGTERM (SIGKILL if it has not ended after 2 s), draining its output meanwhile,
        /// and closes the terminal.
        func stop() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            // The reader restores the terminal and exits on SIGTERM; drain its output meanwhile.
            var buffer = [UInt8](repeating: 0, count: 4096)
            for _ in 0..<200 {
                if waitpid(pid, &status, WNOHANG) == pid { break }
                var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&fds, 1, 10) > 0 { _ = Glibc.read(master, &buffer, buffer.count) }
            }
            if waitpid(pid, &status, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
            close(master)
        }

        /// Reads the program's output until it has written nothing for `quiet` seconds: when the first and
        /// the last bytes arrived and how many bytes came (`since` and 0 when nothing came within a second).
        @discardableResult
        func readUntilQuiet(for quiet: Double, since: Double) throws -> (last: Double, bytes: Int, first: Double) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var first = since
            var last = since
            var count = 0
            while true {
                let wait = count == 0 ? 1.0 : quiet
                var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&fds, 1, Int32(wait * 1000)) > 0 else { return (last, count, first) }
                let n = Glibc.read(master, &buffer, buffer.count)
                guard n > 0 else { throw Failure(description: "the program ended") }
                last = now()
                if count == 0 { first = last }
                count += n
            }
        }

        /// Reads what the program writes until `marker` has appeared (in what was read since this call);
        /// returns the bytes read.
        func read(until marker: String, timeout: Double = 10) throws -> [UInt8] {
            let needle = Array(marker.utf8)
            return try read(until: "\"\(marker)\"", timeout: timeout) { $0.count >= needle.count && PseudoTerminalRun.contains($0, needle) }
        }

        /// Reads what the program writes until what was read since this call satisfies `done` (`what` names
        /// it in the error when it does not within `timeout`); returns the bytes read.
        func read(until what: String, timeout: Double = 10, _ done: ([UInt8]) -> Bool) throws -> [UInt8] {
            var seen: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            let started = now()
            while now() - started < timeout {
                var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&fds, 1, 50) > 0 else { continue }
                let n = Glibc.read(master, &buffer, buffer.count)
                if n <= 0 { break }
                seen += buffer[0..<n]
                if done(seen) { return seen }
            }
            throw Failure(description: "\(what) did not appear within \(timeout) s")
        }
    }

    /// Starts the program on a new pseudo-terminal of `columns` x `rows`.
    func start() throws -> Started {
        // posix_openpt/grantpt/unlockpt/ptsname are not in Swift's Glibc module: open the multiplexer and
        // use the Linux ioctls behind them (TIOCSPTLCK to unlock, TIOCGPTN for the number; grantpt is a
        // no-op with devpts).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            if master >= 0 { close(master) }
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * (cellPixels?.width ?? 0)),
                           ws_ypixel: UInt16(rows * (cellPixels?.height ?? 0)))
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open \(slavePath)")
        }
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        close(slave)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, slavePath, fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let start = now()
        let spawned = SpawnAttributes.withClean { posix_spawn(&pid, executable, &actions, &$0, argv, envp) }
        guard spawned == 0 else {
            close(master)
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        return Started(master: master, pid: pid, start: start)
    }

    /// Seconds from just before `posix_spawn` until `marker` has appeared in what the program wrote.
    func secondsUntil(_ marker: String, timeout: Double = 10) throws -> Double {
        let program = try start()
        defer { program.stop() }
        _ = try program.read(until: marker, timeout: timeout)
        return now() - program.start
    }

    /// TIOCSPTLCK = _IOW('T', 0x31, int) and TIOCGPTN = _IOR('T', 0x30, unsigned int) on Linux.
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        var i = haystack.startIndex
        while let j = haystack[i...].firstIndex(of: first) {
            if haystack[j...].starts(with: needle) { return true }
            i = j + 1
        }
        return false
    }
}
