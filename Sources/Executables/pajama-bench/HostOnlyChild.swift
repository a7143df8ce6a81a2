import Foundation
import PajamaCoReading

/// `pajama-bench --host-only FOLDER` (hidden): a child for the descriptor-budget test, run under a low
/// `ulimit -n`. Hosts FOLDER (story "shared") on 127.0.0.1, any port, with the token in `PAJAMA_TOKEN`,
/// and prints "port N". Each line "open N" on standard input opens story.json N times at once (as the
/// owner's reader opens its own files) and prints "opened K of N" with the reason of the first failure.
/// Also the host of the bench's RSS row (no standard input: it hosts until ended).
enum HostOnlyChild {
    static func run(folder: String, headerTimeout: Duration, followerCap: Int) async -> Never {
        var limits = HostLimits()
        limits.headerTimeout = headerTimeout
        limits.followerCap = followerCap
        let token = ProcessInfo.processInfo.environment["PAJAMA_TOKEN"] ?? HostAccess.randomToken()
        let host = CoReadingHost(content: .folder(URL(fileURLWithPath: folder)), storyId: ProcessInfo.processInfo.environment["PAJAMA_STORY_ID"] ?? "shared", storyVersion: nil,
                                 configuration: .init(port: 0, ownerName: "child", limits: limits), token: token,
                                 log: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        do {
            _ = try await host.start()
        } catch {
            say("cannot host: \(error)")
            exit(2)
        }
        say("port \(host.port) budget \(limits.budget)")
        while let line = readLine() {
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "open", let count = Int(words[1]) else { continue }
            var opened: [Int32] = []
            var failure = ""
            for _ in 0..<count {
                let fd = open(folder + "/story.json", O_RDONLY | O_CLOEXEC)
                if fd >= 0 { opened.append(fd) } else if failure.isEmpty { failure = String(cString: strerror(errno)) }
            }
            say("opened \(opened.count) of \(count)\(failure.isEmpty ? "" : " (\(failure))")")
            for fd in opened { close(fd) }
        }
        // Standard input ended (the bench gives none): host until the parent ends this process.
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// A line on standard output, written at once (the test reads the file as it grows).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
