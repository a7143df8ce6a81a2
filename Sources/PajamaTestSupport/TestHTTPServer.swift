import Foundation

/// A real web server on 127.0.0.1 for tests and the bench: Python's http.server on a free port (or a
/// given one, to restart a stopped server at the same URL), serving a folder, with per-path misbehaviour:
///
/// - `failing`: answer 500 with an empty body;
/// - `truncated`: announce the full Content-Length, send half the body, close the connection;
/// - `stalling`: announce the full Content-Length, send half the body, then hang until the server stops;
/// - `slow`: wait `slowDelay` seconds before answering.
///
/// `latency` seconds are added to every response. Missing files answer 404. Every request is logged
/// (`requestCount(for:)`, `waitForRequest(_:count:)`), so tests can count retries and synchronise with
/// a request that is in progress.
public final class TestHTTPServer: @unchecked Sendable {
    // Safe: the lets are set in init; `stopped` is only touched with `lock` held.
    public let port: Int
    public let root: URL
    private let pid: pid_t
    private let scriptFile: URL
    private let portFile: URL
    private let logFile: URL
    private let lock = NSLock()
    private var stopped = false

    static let script = """
    import http.server, socketserver, sys, time, os, json, signal
    # The spawning thread may block or ignore SIGTERM, and spawned processes inherit both: undo that so
    # stop() ends the server at once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    config = json.loads(sys.argv[1])
    root, latency, slow_delay = config['root'], config['latency'], config['slowDelay']
    failing, truncated, stalling, slow = (set(config[k]) for k in ('failing', 'truncated', 'stalling', 'slow'))
    log = open(config['log'], 'a', buffering=1)
    os.chdir(root)
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a): pass
        def body(self, path):
            with open(path, 'rb') as f: return f.read()
        def half(self, path):
            data = self.body(path)
            self.send_response(200)
            self.send_header('Content-Type', 'application/octet-stream')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
        def do_GET(self):
            path = self.path.lstrip('/')
            if latency > 0: time.sleep(latency)
            if path in slow: time.sleep(slow_delay)
            if path in failing:
                log.write(path + '\\n')
                self.send_response(500); self.send_header('Content-Length', '0'); self.end_headers(); return
            if path in truncated:
                self.half(path)
                log.write(path + '\\n')
                self.close_connection = True
                return
            if path in stalling:
                self.half(path)
                log.write(path + '\\n')
                while True: time.sleep(1)
            log.write(path + '\\n')
            return super().do_GET()
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True
    s = Server(('127.0.0.1', config['port']), Handler)
    print(s.server_address[1], flush=True)
    s.serve_forever()
    """

    /// Serves `root` (see the type's notes for the misbehaving paths). `port` 0 picks a free port.
    public init(root: URL, latency: Double = 0, failing: [String] = [], truncated: [String] = [], stalling: [String] = [],
                slow: [String] = [], slowDelay: Double = 60, port: Int = 0) throws {
        self.root = root
        let tag = UUID().uuidString
        let temporary = FileManager.default.temporaryDirectory
        scriptFile = temporary.appendingPathComponent("pajama-http-\(tag).py")
        portFile = temporary.appendingPathComponent("pajama-http-\(tag).port")
        logFile = temporary.appendingPathComponent("pajama-http-\(tag).log")
        try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let config: [String: Any] = [
            "root": root.path, "latency": latency, "failing": failing, "truncated": truncated, "stalling": stalling,
            "slow": slow, "slowDelay": slowDelay, "port": port, "log": logFile.path,
        ]
        let configText = String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)
        pid = try ChildProcess.spawn("python3", [scriptFile.path, configText], outputFile: portFile.path)
        var found: Int?
        for _ in 0..<1000 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), text.hasSuffix("\n"),
                let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                found = value
                break
            }
            usleep(10_000)
        }
        guard let found else {
            ChildProcess.terminate(pid)
            Self.remove([scriptFile, portFile, logFile])
            throw ChildProcess.Failure(message: "the test web server did not start")
        }
        self.port = found
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many requests for `path` (no leading slash) the server has answered or begun answering.
    public func requestCount(for path: String) -> Int {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0 == path }.count
    }

    /// Waits (polling the request log) until `path` has been requested `count` times; false after
    /// `timeout` seconds. For a stalling path, true means half the body has been sent.
    public func waitForRequest(_ path: String, count: Int = 1, timeout: Double = 30) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .milliseconds(Int(timeout * 1000)))
        while clock.now < end {
            if requestCount(for: path) >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return requestCount(for: path) >= count
    }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        ChildProcess.terminate(pid)
        Self.remove([scriptFile, portFile, logFile])
    }

    private static func remove(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    deinit { stop() }
}
