import Foundation

/// Runs a program to completion and collects what it printed (for tests and the bench).
public struct ChildProcess: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`; waits at most `timeout` seconds,
    /// then kills it (status -9).
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, timeout: TimeInterval = 60
    ) throws -> Result {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        let collected = Collected()
        for (pipe, isOut) in [(out, true), (err, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOut: isOut)
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        process.waitUntilExit()
        group.wait()
        let (o, e) = collected.values
        return Result(status: killed ? -9 : process.terminationStatus, stdout: o, stderr: e)
    }
}

/// Output gathered from two reader threads.
private final class Collected: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func set(_ data: Data, isOut: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isOut { out = data } else { err = data }
    }

    var values: (String, String) {
        lock.lock()
        defer { lock.unlock() }
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
