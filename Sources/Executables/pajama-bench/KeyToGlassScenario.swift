import Foundation
import Glibc
import PajamaStorage
import PajamaTestSupport

/// `key-to-glass`: what a reader feels. The real `pajama` on a pseudo-terminal (xterm-256color) reading
/// the short bundled story: a key's bytes are written to the terminal (`l` forward from the title page,
/// `h` back to it, so every turn is on cached content and draws a new frame), and the time is taken when
/// the last byte of the frame that answers it has been read back. A frame has ended when the program has
/// written nothing more for `quiet` (50 ms, far longer than ncurses takes between the writes of one
/// frame); that wait is not counted. Also: bytes the program wrote per turn, and the frames the reader drew
/// per key (its own count, logged when it quits: `FrameTally`; the first turns render the second page's picture).
struct KeyToGlassScenario: Scenario {
    let name = "key-to-glass"
    let summary = "key bytes written to the last byte of the new frame, real binary on a pty, cached content"
    static let quiet = 0.05

    /// `PAJAMA_BENCH_BASELINE_PAJAMA`: another build of `pajama` (an older commit's release build) measured
    /// in the same run, each size just before this build, its rows the baseline of this build's.
    static let baselineBinary = ProcessInfo.processInfo.environment["PAJAMA_BENCH_BASELINE_PAJAMA"].flatMap { $0.isEmpty ? nil : $0 }

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let binary = try StartupScenario.builtPajama()
        let turns = max(100, options.iterations(500))
        var rows: [BenchRow] = []
        // Cells at both sizes; then pictures in pixels at 200x60 (forced: this pty answers no query; its cells
        // are 10x20 pixels through TIOCGWINSZ), each turn's frame carrying the cached sixel or kitty picture.
        for (columns, lines, pictures) in [(80, 24, "cells"), (200, 60, "cells"), (200, 60, "sixel"), (200, 60, "kitty")] {
            let size = pictures == "cells" ? "\(columns)x\(lines)" : "\(columns)x\(lines) \(pictures)"
            if let baseline = Self.baselineBinary {
                guard FileManager.default.isExecutableFile(atPath: baseline) else {
                    throw ScenarioFailure(description: "PAJAMA_BENCH_BASELINE_PAJAMA: \(baseline) is not an executable")
                }
                let before = try measure(binary: baseline, columns: columns, lines: lines, pictures: pictures, turns: turns)
                rows.append(BenchRow(scenario: name, name: "\(size), baseline build", unit: .seconds, stats: Statistics(before.seconds),
                                     note: "\(baseline), measured just before this build"))
                let after = try measure(binary: binary, columns: columns, lines: lines, pictures: pictures, turns: turns)
                rows += self.rows(after, size: size, turns: turns, baseline: "\(size), baseline build")
            } else {
                rows += self.rows(try measure(binary: binary, columns: columns, lines: lines, pictures: pictures, turns: turns),
                                  size: size, turns: turns, baseline: nil)
            }
        }
        return rows
    }

    /// One size's turns by one build.
    struct Measured {
        var seconds: [Double] = []
        var firstBytes: [Double] = []
        var bytes: [Double] = []
        var frames: (mean: Double, line: String)?
    }

    private func rows(_ measured: Measured, size: String, turns: Int, baseline: String?) -> [BenchRow] {
        let stats = Statistics(measured.seconds)
        var rows = [
            BenchRow(scenario: name, name: size, unit: .seconds, stats: stats, baseline: baseline, target: "p99 < 3 ms",
                     met: stats.p99 < 0.003, note: "\(turns) turns, \(Int(Statistics(measured.bytes).median)) bytes written per turn (median), \(Int(measured.bytes.reduce(0, +) / Double(measured.bytes.count))) (mean)"),
            BenchRow(scenario: name, name: "\(size), first byte", unit: .seconds, stats: Statistics(measured.firstBytes),
                     note: "the same turns, until the first byte of the answer (the page's frame starts)"),
        ]
        if let frames = measured.frames {
            rows.append(BenchRow(scenario: name, name: "\(size), frames per key", unit: .count,
                                 stats: Statistics([frames.mean]), target: "1.0", met: frames.mean < 1.005, note: frames.line))
        }
        return rows
    }

    private func measure(binary: String, columns: Int, lines: Int, pictures: String, turns: Int) throws -> Measured {
        let home = try TemporaryDirectory(prefix: "pajama-bench-glass")
        defer { home.remove() }
        let story = PackagePaths.stories.appendingPathComponent("lantern-keeper").path
        let environment = Paths.environment(home: home.path).merging(["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        var run = PseudoTerminalRun(executable: binary, arguments: ["read", story, "--restart", "--no-sound", "--log-level", "info",
                                                                    "--pictures", pictures], environment: environment)
        run.columns = columns
        run.rows = lines
        run.cellPixels = (10, 20)
        let program = try run.start()
        var stopped = false
        defer { if !stopped { program.stop() } }
        _ = try program.read(until: "A short story for a stormy night")
        try program.readUntilQuiet(for: Self.quiet, since: now())  // the picture drawn after the first page
        var measured = Measured()
        for turn in 0..<(turns + 20) {
            let key: UInt8 = turn % 2 == 0 ? UInt8(ascii: "l") : UInt8(ascii: "h")
            var byte = key
            let start = now()
            guard write(program.master, &byte, 1) == 1 else { throw ScenarioFailure(description: "cannot write to the pseudo-terminal") }
            let (last, count, first) = try program.readUntilQuiet(for: Self.quiet, since: start)
            guard count > 0 else { throw ScenarioFailure(description: "no frame answered key \(Character(Unicode.Scalar(key))) (turn \(turn))") }
            if turn >= 20 {  // the first turns render the second page's picture and fill the caches
                measured.seconds.append(last - start)
                measured.firstBytes.append(first - start)
                measured.bytes.append(Double(count))
            }
        }
        program.stop()  // SIGTERM: the reader ends the normal way and logs its frames per key
        stopped = true
        measured.frames = Self.framesPerKey(log: home.path + "/state/pajama/pajama.log")
        return measured
    }

    /// The reader's own count of frames per key, from the last session's line in its log (nil from a reader
    /// that does not count them: an older build measured for comparison).
    static func framesPerKey(log: String) -> (mean: Double, line: String)? {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.contains("frames per key ") }),
              let range = line.range(of: "frames per key ") else { return nil }
        let rest = line[range.upperBound...]
        guard let mean = Double(rest.prefix { $0.isNumber || $0 == "." }) else { return nil }
        let detail = rest.drop { $0 != ":" }.dropFirst()
        let end = detail.range(of: "with more")?.upperBound ?? detail.endIndex
        return (mean, "the reader's own count:" + detail[..<end])
    }
}
