import Foundation
import PajamaInk
import PajamaTestSupport

/// `ink`: the ink runtime (PajamaInk, issue 16). Continuing to the next choice (a move: take a choice, then
/// continue line by line until the story offers choices again) on the largest story of the conformance
/// corpus and on a generated 10,000-line story, and loading a generated ~150 KB story; each beside bink
/// (the reference runtime, scripts/ink-bink.sh) doing the same on the same files in the same run, when
/// its venv is there. What both runtimes said is compared (a digest of every line, tag and choice).
struct InkScenario: Scenario {
    let name = "ink"
    let summary = "ink runtime: continue to the next choice, load a 150 KB story, beside bink"

    static let linesPerKnot = 20

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let folder = try TemporaryDirectory(prefix: "pajama-bench-ink")
        defer { folder.remove() }
        let bink = BinkTimer()
        var rows: [BenchRow] = []

        // (a) The largest story of the conformance corpus.
        if let corpus = InkConformanceCorpus.directory, let largest = InkConformanceCorpus.largestRuntimeStory(in: corpus) {
            rows += try entryPointRows(file: largest.url, label: "\(largest.name) (\(kilobytes(largest.size)))", bink: bink,
                                       rounds: options.iterations(100))
        } else {
            rows.append(BenchRow(scenario: name, name: "continue to choice, largest conformance story", unit: .seconds,
                                 stats: Statistics([]),
                                 note: "skipped: conformance corpus absent (../shared/ink-conformance beside the project, or INK_CONFORMANCE_DIR)"))
        }

        // (a) A generated story of 10,000 lines.
        let long = GeneratedInkStory.json(knots: 10_000 / Self.linesPerKnot, linesPerKnot: Self.linesPerKnot)
        let longFile = try folder.write("long.ink.json", long)
        rows += try moveRows(file: longFile, text: long, label: "generated, 10,000 lines (\(kilobytes(long.utf8.count)))",
                             bink: bink, moves: options.iterations(2_000))

        // (b) Loading a generated story of about 150 KB.
        let perKnot = GeneratedInkStory.json(knots: 100, linesPerKnot: Self.linesPerKnot).utf8.count / 100
        let small = GeneratedInkStory.json(knots: 150_000 / perKnot, linesPerKnot: Self.linesPerKnot)
        let smallFile = try folder.write("small.ink.json", small)
        rows += try loadRows(file: smallFile, text: small, label: "load a \(kilobytes(small.utf8.count)) story (generated)",
                             bink: bink, loads: options.iterations(100))

        if !bink.installed {
            rows.append(BenchRow(scenario: name, name: "bink", unit: .seconds, stats: Statistics([]),
                                 note: "bink: not installed, run scripts/ink-bink.sh"))
        }
        return rows
    }

    // MARK: The three measurements

    /// The largest conformance story is a bank of entry points (its root ends after one line), as the inkjs
    /// tests use it: a move is a jump to one of its knots or stitches, then continuing to its first choice
    /// or its end, the state reset (not timed) before each. Only the entry points that run without an
    /// error in both runtimes are measured (some are functions that take arguments).
    private func entryPointRows(file: URL, label: String, bink: BinkTimer, rounds: Int) throws -> [BenchRow] {
        let text = try String(contentsOf: file, encoding: .utf8)
        let player = try InkPlayer(json: text)
        let candidates = InkConformanceCorpus.entryPoints(ofCompiledStory: text)
        var paths = candidates.filter { player.runsCleanly(from: $0) }
        let theirs = try bink.run(["paths", file.path, String(rounds)] + paths)
        paths = theirs?.kept ?? paths
        guard !paths.isEmpty else { throw ScenarioFailure(description: "\(label): no entry point runs without an error") }
        let measured = try InkPlayer(json: text)
        var samples: [Double] = [], cpu: [Double] = []
        var cpuByPath: [String: [Double]] = [:]
        for round in 0...rounds {
            for path in paths {
                try measured.reset()
                let start = now(), startCPU = threadCPUSeconds()
                try measured.jump(to: path)
                if round > 0 {
                    samples.append(now() - start)
                    cpu.append(threadCPUSeconds() - startCPU)
                    cpuByPath[path, default: []].append(cpu[cpu.count - 1])
                }
            }
        }
        let slowest = cpuByPath.mapValues { Statistics($0).median }.max { $0.value < $1.value }
        let note = "\(paths.count) of its \(candidates.count) knots and stitches, each to its first choice or end, \(rounds) rounds"
            + (slowest.map { "; the slowest, \($0.key): CPU p50 \(Format.value($0.value, .seconds))" } ?? "")
        return rows(measure: "continue to choice, \(label)", ours: samples, cpu: cpu, digest: measured.digest, theirs: theirs,
                    target: "p99 < 1 ms", met: { $0.p99 < 0.001 }, note: note)
    }

    /// A move on the generated story: a choice (picked by the seeded picker the differential test uses),
    /// then `linesPerKnot` lines to the next knot's choices.
    private func moveRows(file: URL, text: String, label: String, bink: BinkTimer, moves: Int) throws -> [BenchRow] {
        let player = try InkPlayer(json: text)
        var picker = ChoicePicker(state: 1)
        var lines = player.continueToChoice()
        var samples: [Double] = [], cpu: [Double] = []
        for move in 0..<(BinkTimer.warmup + moves) {
            let choices = player.story.currentChoices.count
            guard choices > 0, player.errors.isEmpty else {
                throw ScenarioFailure(description: "\(label): stopped after \(move) moves: \(player.errors.first ?? "no choices")")
            }
            let start = now(), startCPU = threadCPUSeconds()
            try player.story.chooseChoiceIndex(picker.pick(choices))
            let read = player.continueToChoice()
            if move >= BinkTimer.warmup {
                samples.append(now() - start)
                cpu.append(threadCPUSeconds() - startCPU)
            }
            guard read == Self.linesPerKnot else {
                throw ScenarioFailure(description: "\(label): move \(move) read \(read) lines, not \(Self.linesPerKnot)")
            }
            lines += read
        }
        let theirs = try bink.run(["moves", file.path, String(moves)])
        return rows(measure: "continue to choice, \(label)", ours: samples, cpu: cpu, digest: player.digest, theirs: theirs,
                    target: "p99 < 1 ms", met: { $0.p99 < 0.001 },
                    note: "\(Self.linesPerKnot) lines, a variable, a cycle and 2 choices a move; \(lines) lines read")
    }

    private func loadRows(file: URL, text: String, label: String, bink: BinkTimer, loads: Int) throws -> [BenchRow] {
        let samples = try measure(iterations: loads) { _ = try Story(json: text, seed: 7) }
        let theirs = try bink.run(["load", file.path, String(loads)])
        return rows(measure: label, ours: samples, cpu: [], digest: nil, theirs: theirs, target: "median < 20 ms",
                    met: { $0.median < 0.020 }, note: "JSON text in memory to a story ready to continue")
    }

    /// PajamaInk's row, after bink's (its baseline) when bink ran. `cpu`: the thread's CPU time of each
    /// sample, given in the note (p50 / p99) to tell the runtime's own tail from waiting for a processor.
    private func rows(
        measure: String, ours: [Double], cpu: [Double], digest: UInt64?, theirs: BinkTimer.Result?, target: String,
        met: (Statistics) -> Bool, note: String
    ) -> [BenchRow] {
        let stats = Statistics(ours)
        var row = BenchRow(scenario: name, name: measure, unit: .seconds, stats: stats, target: target, met: met(stats),
                           note: note + cpuNote(cpu))
        guard let theirs else { return [row] }
        let binkName = "bink: " + measure
        var binkNote = "the reference runtime, the same work"
        if let digest, let same = theirs.saidTheSame(as: digest) {
            binkNote += same ? "; said the same" : "; SAID SOMETHING ELSE (digest \(theirs.digest ?? ""))"
        }
        if let errors = theirs.errors { binkNote += "; \(errors) errors" }
        binkNote += cpuNote(theirs.cpu)
        row.baseline = binkName
        return [BenchRow(scenario: name, name: binkName, unit: .seconds, stats: Statistics(theirs.samples), note: binkNote), row]
    }

    private func cpuNote(_ cpu: [Double]) -> String {
        guard !cpu.isEmpty else { return "" }
        let stats = Statistics(cpu)
        return "; CPU time p50 \(Format.value(stats.median, .seconds)), p99 \(Format.value(stats.p99, .seconds))"
    }

    private func kilobytes(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? "\(String(format1: Double(bytes) / 1_000_000)) MB" : "\(bytes / 1000) KB"
    }
}
