import Foundation
import PajamaTestSupport
import Testing

/// A child started by the test support gets only descriptors 0, 1 and 2: what the caller holds open
/// without close-on-exec (other tests' sockets and pipes) must not count against a child's `ulimit -n`
/// (HostDescriptorBudgetEndToEndTests failed in CI with "opened 3 of 8 (Too many open files)") nor keep
/// another child's pipe open.
@Suite struct ChildProcessTests {
    /// The descriptors of the shell itself (listed by another process, `ls`, whose own are not in it).
    static let listing = "ls /proc/$$/fd"

    @Test func runPassesOnlyTheStandardDescriptors() throws {
        let held = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, as a raw socket or pipe of another test
        #expect(held > 2)
        defer { close(held) }
        let result = try ChildProcess.run("/bin/sh", ["-c", Self.listing])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.numbers(result.stdout) == [0, 1, 2], "\(result.stdout)")
    }

    @Test func spawnPassesOnlyTheStandardDescriptors() throws {
        let held = open("/dev/null", O_RDONLY)
        #expect(held > 2)
        defer { close(held) }
        let dir = try TemporaryDirectory(prefix: "pajama-child")
        let output = dir.path + "/out"
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", Self.listing + "; echo done"], outputFile: output)
        defer { ChildProcess.terminate(pid) }
        func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        #expect(Poll.until(timeout: 30) { printed().contains("done") }, "\(printed())")
        #expect(Self.numbers(printed()) == [0, 1, 2], "\(printed())")
    }

    static func numbers(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { Int($0) }.sorted()
    }
}
