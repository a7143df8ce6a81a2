import Foundation
import PajamaTestSupport
import Testing

/// The host's connection budget (issue 26): a host under `ulimit -n 64` (a child process, the real
/// `CoReadingHost` in `pajama-bench --host-only`) held by 120 sockets that never send a byte keeps
/// descriptors for the owner's own files, and answers a real request at once: near the budget, the
/// connections that sent no request are closed first (issue 42, item 3; before, the request waited for the
/// header timeout to close them). Before the budget, the sockets took every descriptor ("Too many open files").
@Suite(.serialized) struct HostDescriptorBudgetEndToEndTests {
    static let token = "budget-token-0123456789"

    @Test func socketsThatNeverSpeakLeaveTheOwnerDescriptorsAndRequestsAnAnswer() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-budget")
        _ = try dir.write("story/story.json", #"{"format":1,"id":"shared","title":"Shared","startBeatId":"start"}"#)
        _ = try dir.write("story/beats/start.json", #"{"id":"start","pages":[{"id":"p1","type":"text","lines":["one"]}]}"#)
        let fifo = dir.path + "/commands"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open for writing (and reading, so neither side waits for the other to open it).
        let commands = open(fifo, O_RDWR | O_NONBLOCK)
        #expect(commands >= 0)
        defer { close(commands) }
        let output = dir.path + "/out"
        let bench = PackagePaths.executable("pajama-bench").path
        let script = "ulimit -n 64 && exec '\(bench)' --host-only '\(dir.path)/story' --host-header-timeout-ms 1500 < '\(fifo)'"
        var environment = ProcessInfo.processInfo.environment
        environment["PAJAMA_TOKEN"] = Self.token
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", script], outputFile: output, errorFile: dir.path + "/err",
                                         environment: environment)
        defer { ChildProcess.terminate(pid) }
        func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        #expect(Poll.until(timeout: 60) { printed().contains("port ") }, "\(printed())")
        let words = printed().split(whereSeparator: { $0 == " " || $0 == "\n" })
        let port = try #require(words.firstIndex(of: "port").flatMap { Int(words[$0 + 1]) })
        let budget = try #require(words.firstIndex(of: "budget").flatMap { Int(words[$0 + 1]) })
        #expect(budget == 32)

        // 120 sockets that never send a byte: more than the budget and more than the descriptor limit.
        var silent: [RawConnection] = []
        for _ in 0..<120 { if let connection = try? RawConnection(port: port) { silent.append(connection) } }
        #expect(silent.count == 120)
        // The owner's reader opens its own files meanwhile: 8 at once.
        _ = "open 8\n".withCString { write(commands, $0, strlen($0)) }
        #expect(Poll.until(timeout: 60) { printed().contains("opened ") }, "\(printed())")
        #expect(printed().contains("opened 8 of 8"), "\(printed())")
        // A follower's request is answered (the silent sockets shed to make room for it). Sent and read
        // on a plain socket with a deadline: an HTTP client's read needs Swift's cooperative pool, which the
        // other end-to-end tests' synchronous screen waits can hold for longer than any timeout (this test
        // failed that way in whole-suite runs: "story.json: timed out: no data arrived for 30 s").
        let request = try RawConnection(port: port)
        request.send("GET /story.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.token)\r\nConnection: close\r\n\r\n")
        let answer = request.readUntilClosed(timeout: .seconds(120))
        #expect(answer.closed, "no answer within 120 s: \(answer.text)")
        #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text)")
        #expect(answer.text.contains("\"shared\""), "\(answer.text)")
        #expect(ChildProcess.exitDescription(pid) == nil, "the host ended: \(String(describing: ChildProcess.exitDescription(pid)))")
        withExtendedLifetime(silent) {}  // the silent sockets stay open until here
    }
}
