import Foundation

/// A real web server on 127.0.0.1 for tests and the bench: Python's http.server on a free port,
/// serving a folder, with optional added latency per response and paths that answer 500.
public final class TestHTTPServer: @unchecked Sendable {
    // Safe: the lets are set in init; `stopped` is only touched with `lock` held.
    public let port: Int
    public let root: URL
    private let pid: pid_t
    private let scriptFile: URL
    private let portFile: URL
    private let lock = NSLock()
    private var stopped = false

    static let script = """
    import http.server, socketserver, sys, time, os
    root, latency, failing = sys.argv[1], float(sys.argv[2]), set(filter(None, sys.argv[3].split(',')))
    os.chdir(root)
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a): pass
        def do_GET(self):
            if latency > 0: time.sleep(latency)
            if self.path.lstrip('/') in failing:
                self.send_response(500); self.send_header('Content-Length', '0'); self.end_headers(); return
            return super().do_GET()
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True
    s = Server(('127.0.0.1', 0), Handler)
    print(s.server_address[1], flush=True)
    s.serve_forever()
    """

    /// Serves `root`; `latency` seconds are added to every response; `failing` paths answer 500.
    public init(root: URL, latency: Double = 0, failing: [String] = []) throws {
        self.root = root
        let tag = UUID().uuidString
        scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-http-\(tag).py")
        portFile = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-http-\(tag).port")
        try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
        pid = try ChildProcess.spawn("python3", [scriptFile.path, root.path, String(latency), failing.joined(separator: ",")],
                                     outputFile: portFile.path)
        var found: Int?
        for _ in 0..<500 {
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
            throw ChildProcess.Failure(message: "the test web server did not start")
        }
        port = found
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        ChildProcess.terminate(pid)
        try? FileManager.default.removeItem(at: scriptFile)
        try? FileManager.default.removeItem(at: portFile)
    }

    deinit { stop() }
}

