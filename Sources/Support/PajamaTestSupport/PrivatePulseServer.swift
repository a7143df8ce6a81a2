import Foundation
import PajamaModel
import PajamaStorage

/// A private PulseAudio server for tests: one null sink whose monitor a `SinkRecorder` records, a Unix
/// socket, and a home of its own (`Paths.environment(home:runtime:)`) so it never shares a runtime
/// folder, cookie or lock with another server or with the machine's. Stopped (and cleaned up) by `stop()`.
///
/// Starting waits, with a deadline, until the server answers `pactl info`; a start that fails (the
/// process exits, or does not answer in time) is retried in a fresh home, and the error names every
/// attempt with pulseaudio's own log and exit status.
public final class PrivatePulseServer: @unchecked Sendable {
    // Safe: the lets are set in init; `stopped` is `Locked`.
    /// Holds the socket (unless one was given) and the home of every start attempt.
    public let folder: TemporaryDirectory
    public let socketPath: String
    public let sinkName = "pajama_test"
    /// The running server's own home folder (inside `folder`).
    public let home: String
    /// The server's standard output and error.
    public var logPath: String { home + "/pulseaudio.log" }
    private let pid: pid_t
    private let stopped = Locked(false)

    /// How many times a start is tried, and how long one attempt may take to answer.
    public static let attempts = 3
    public static let startTimeout: TimeInterval = 30

    /// `unix:<socket>`, for PULSE_SERVER or the engine's `server:` parameter.
    public var serverAddress: String { "unix:" + socketPath }

    /// The environment for a client program (pactl, parec) talking to this server: this server's home,
    /// so a client never writes a cookie or config into the real home.
    public var clientEnvironment: [String: String] { Self.environment(home: home) }

    /// Starts a server at `socketPath` (a fresh one when nil) and waits until it answers.
    public init(socketPath: String? = nil, folder: TemporaryDirectory? = nil) throws {
        let ownFolder = folder == nil
        let folder = try folder ?? TemporaryDirectory(prefix: "pajama-pulse")
        let socket = socketPath ?? folder.path + "/native"
        var failures: [String] = []
        var started: (pid: pid_t, home: String)?
        for attempt in 1...Self.attempts {
            let home = folder.path + "/server-\(UUID().uuidString.prefix(8))"
            switch Self.start(socket: socket, home: home) {
            case .success(let pid):
                started = (pid, home)
            case .failure(let failure):
                failures.append("attempt \(attempt) (\(home)): \(failure.message)")
            }
            if started != nil { break }
        }
        guard let started else {
            if ownFolder { folder.remove() }
            throw ChildProcess.Failure(message: "pulseaudio did not start:\n" + failures.joined(separator: "\n"))
        }
        self.folder = folder
        self.socketPath = socket
        self.home = started.home
        self.pid = started.pid
    }

    /// One attempt: a fresh home, the server spawned with a clean signal state, then polled (its exit,
    /// its socket, `pactl info`) until it answers or the deadline passes.
    private static func start(socket: String, home: String) -> Result<pid_t, ChildProcess.Failure> {
        let log = home + "/pulseaudio.log"
        func failure(_ text: String) -> Result<pid_t, ChildProcess.Failure> {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return .failure(ChildProcess.Failure(message: text + "; its log:\n" + (output.isEmpty ? "(empty)" : output)))
        }
        let pid: pid_t
        do {
            for sub in ["", "/runtime", "/config"] {
                try FileManager.default.createDirectory(atPath: home + sub, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            pid = try ChildProcess.spawn("pulseaudio", [
                "-n", "--daemonize=no", "--exit-idle-time=-1", "--system=no", "--use-pid-file=no",
                "--disable-shm=yes", "--realtime=no", "--high-priority=no", "--log-target=stderr",
                "-L", "module-null-sink sink_name=pajama_test rate=48000 channels=1",
                "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                "-L", "module-cli-protocol-unix socket=\(home)/cli",
            ], outputFile: log, errorFile: log, environment: environment(home: home))
        } catch {
            return .failure(ChildProcess.Failure(message: "cannot start pulseaudio: \(error)"))
        }
        let deadline = Date().addingTimeInterval(startTimeout)
        var lastAnswer = "its socket never appeared"
        while Date() < deadline {
            if let ended = ChildProcess.exitDescription(pid) { return failure("pulseaudio ended before answering: \(ended)") }
            // A module given with -L that fails to load does not stop pulseaudio: it runs on without it.
            if let output = try? String(contentsOfFile: log, encoding: .utf8), output.contains("Failed to load module") {
                ChildProcess.terminate(pid)
                return failure("pulseaudio could not load a module")
            }
            if FileManager.default.fileExists(atPath: socket) {
                let left = max(1, deadline.timeIntervalSinceNow)
                if let info = try? ChildProcess.run("pactl", ["-s", "unix:" + socket, "info"], environment: environment(home: home),
                                                    timeout: min(10, left)) {
                    if info.status == 0 { return .success(pid) }
                    lastAnswer = "pactl info: status \(info.status): \(info.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
                }
            }
            usleep(20_000)
        }
        ChildProcess.terminate(pid)
        return failure("pulseaudio did not answer within \(Int(startTimeout)) s (\(lastAnswer))")
    }

    /// The environment of the server and its clients: the inherited one with this home, no display (so
    /// D-Bus is never autolaunched) and a session bus address that fails at once.
    static func environment(home: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (name, value) in Paths.environment(home: home, runtime: home + "/runtime") { env[name] = value }
        env["PULSE_RUNTIME_PATH"] = home + "/runtime"
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + home + "/no-session-bus"
        for name in ["PULSE_SERVER", "PULSE_COOKIE", "PULSE_SINK", "PULSE_SOURCE", "DISPLAY", "WAYLAND_DISPLAY"] { env[name] = nil }
        return env
    }

    /// The index of the sink input whose media name is `mediaName` (Pajama's loop is "Pajama background"), if one is playing.
    public func sinkInput(named mediaName: String) -> Int? {
        var current: Int?
        for line in pactl("list", "sink-inputs").split(separator: "\n") {
            if line.hasPrefix("Sink Input #") { current = Int(line.dropFirst("Sink Input #".count)) }
            if line.contains("media.name = \"\(mediaName)\"") { return current }
        }
        return nil
    }

    /// `pactl` against this server (its output; empty when pactl fails).
    public func pactl(_ arguments: String...) -> String {
        (try? ChildProcess.run("pactl", ["-s", serverAddress] + arguments, environment: clientEnvironment, timeout: 10).stdout) ?? ""
    }

    /// Runs one command of the server's command-line interface (`pacmd`'s language, e.g. "kill-client 3",
    /// which pactl lacks) over its CLI socket; returns what the server answered.
    public func command(_ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((home + "/cli").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw ChildProcess.Failure(message: "cannot reach \(home)/cli: \(String(cString: strerror(errno)))") }
        // Ends with end-of-file, not "exit" (which would stop the daemon): the server then closes its side.
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        shutdown(fd, Int32(SHUT_WR))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// The names of the samples in the server's sample cache.
    public func sampleNames() -> [String] {
        pactl("list", "samples", "short").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count > 1 ? String(fields[1]) : nil
        }
    }

    /// Polls `condition` until it holds or `timeout` seconds pass; returns whether it held.
    public func waitUntil(timeout: TimeInterval = 15, _ condition: () -> Bool) -> Bool {
        Poll.until(timeout: timeout, condition)
    }

    /// Freezes the server (SIGSTOP): it keeps its socket but answers nothing until `resume()`.
    public func pause() { kill(pid, SIGSTOP) }

    /// Lets a paused server run again (SIGCONT).
    public func resume() { kill(pid, SIGCONT) }

    /// Sends `signal` to the server (SIGKILL: it dies at once, leaving its socket file behind, and clients
    /// see the server as lost; a later server on the same socket path replaces it). `stop()` reaps it.
    public func send(signal: Int32) { kill(pid, signal) }

    /// Stops the server (the socket goes away; clients see the server as lost).
    public func stop(removeFolder: Bool = true) {
        // The lock is held until the server is gone: a second `stop` returns once it is.
        stopped.withLock { stopped in
            guard !stopped else { return }
            stopped = true
            kill(pid, SIGCONT)
            ChildProcess.terminate(pid)
            if removeFolder { folder.remove() } else { try? FileManager.default.removeItem(atPath: home) }
        }
    }

    deinit { stop() }
}
