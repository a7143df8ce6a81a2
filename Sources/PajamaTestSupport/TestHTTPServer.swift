import Foundation

/// A real web server on 127.0.0.1 for tests and the bench: Python's http.server on a free port,
/// serving a folder, with optional added latency per response and paths that answer 500.
public final class TestHTTPServer: @unchecked Sendable {
    // Safe: `process` is set in init and only read afterwards; `stop` is idempotent.
    public let port: Int
    public let root: URL
    private let process: Process
    private let scriptFile: URL

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
        scriptFile = FileManager.default.temporaryDirectory.appendingPathComponent("pajama-http-\(UUID().uuidString).py")
        try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptFile.path, root.path, String(latency), failing.joined(separator: ",")]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = out.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ChildProcess.Failure(message: "the test web server did not start")
        }
        self.port = port
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: scriptFile)
    }

    deinit { stop() }
}

