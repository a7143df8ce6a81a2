import Foundation
import Glibc
import PajamaCore
import PajamaTestSupport

/// `key-to-glass`: what a reader feels. The real `pajama` on a pseudo-terminal (xterm-256color) reading
/// the short bundled story: a key's bytes are written to the terminal (`l` forward from the title page,
/// `h` back to it, so every turn is on cached content and draws a new frame), and the time is taken when
/// the last byte of the frame that answers it has been read back. A frame has ended when the program has
/// written nothing more for `quiet` (50 ms, far longer than ncurses takes between the writes of one
/// frame); that wait is not counted. Also: bytes the program wrote per turn.
struct KeyToGlassScenario: Scenario {
    let name = "key-to-glass"
    let summary = "key bytes written to the last byte of the new frame, real binary on a pty, cached content"
    static let quiet = 0.05

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let binary = try StartupScenario.builtPajama()
        let home = try TemporaryDirectory(prefix: "pajama-bench-glass")
        defer { home.remove() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let environment = Paths.environment(home: home.path).merging(["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        let turns = max(100, options.iterations(500))
        var rows: [BenchRow] = []
        for (columns, lines) in [(80, 24), (200, 60)] {
            var run = PseudoTerminalRun(executable: binary, arguments: ["read", story, "--restart", "--no-sound"], environment: environment)
            run.columns = columns
            run.rows = lines
            let program = try run.start()
            defer { program.stop() }
            _ = try program.read(until: "A short story for a stormy night")
            try program.readUntilQuiet(for: Self.quiet, since: now())  // the picture drawn after the first page
            var seconds: [Double] = []
            var firstBytes: [Double] = []
            var bytes: [Double] = []
            for turn in 0..<(turns + 20) {
                let key: UInt8 = turn % 2 == 0 ? UInt8(ascii: "l") : UInt8(ascii: "h")
                var byte = key
                let start = now()
                guard write(program.master, &byte, 1) == 1 else { throw ScenarioFailure(description: "cannot write to the pseudo-terminal") }
                let (last, count, first) = try program.readUntilQuiet(for: Self.quiet, since: start)
                guard count > 0 else { throw ScenarioFailure(description: "no frame answered key \(Character(Unicode.Scalar(key))) (turn \(turn))") }
                if turn >= 20 {  // the first turns render the second page's picture and fill the caches
                    seconds.append(last - start)
                    firstBytes.append(first - start)
                    bytes.append(Double(count))
                }
            }
            let stats = Statistics(seconds)
            rows.append(BenchRow(scenario: name, name: "\(columns)x\(lines)", unit: .seconds, stats: stats, target: "p99 < 3 ms",
                                 met: stats.p99 < 0.003, note: "\(turns) turns, \(Int(Statistics(bytes).median)) bytes written per turn (median)"))
            rows.append(BenchRow(scenario: name, name: "\(columns)x\(lines), first byte", unit: .seconds, stats: Statistics(firstBytes),
                                 note: "the same turns, until the first byte of the answer (the page's frame starts)"))
        }
        return rows
    }
}
