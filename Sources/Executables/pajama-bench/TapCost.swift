import Foundation
import PajamaTestSupport

/// What one tap costs the process: CPU time (every thread, and a child process's once it is waited for)
/// and heap allocations, per tap, one sample per block of taps.
///
/// Method: a block is an idle window (the engine open, nothing played) then a window of `perBlock` taps
/// `spacing` apart with a tail for the last sound to play out; the idle window's rate (CPU seconds and
/// allocations per second: the engine's own stream, the recorder) times the tap window's length is taken
/// off before dividing by the taps.
struct TapCost {
    var cpu: [Double] = []
    var allocations: [Double] = []

    static let perBlock = 10
    static let spacing = Duration.milliseconds(120)
    static let tail = Duration.milliseconds(300)

    static func measure(
        blocks: Int, _ play: () throws -> Void, settle: () async -> Void = {}
    ) async throws -> TapCost {
        var cost = TapCost()
        for _ in 0..<blocks {
            let idleStart = ProcessInfo.processInfo.systemUptime, idleBefore = ProcessCost.now()
            for _ in 0..<perBlock { try await Task.sleep(for: spacing) }
            try await Task.sleep(for: tail)
            let idle = ProcessCost.now() - idleBefore, idleSeconds = ProcessInfo.processInfo.systemUptime - idleStart

            let start = ProcessInfo.processInfo.systemUptime, before = ProcessCost.now()
            for _ in 0..<perBlock {
                try play()
                try await Task.sleep(for: spacing)
            }
            try await Task.sleep(for: tail)
            await settle()
            let busy = ProcessCost.now() - before, seconds = ProcessInfo.processInfo.systemUptime - start

            let idleShare = seconds / idleSeconds
            cost.cpu.append((busy.cpu + busy.childrenCPU - (idle.cpu + idle.childrenCPU) * idleShare) / Double(perBlock))
            cost.allocations.append((Double(busy.allocations) - Double(idle.allocations) * idleShare) / Double(perBlock))
        }
        return cost
    }

    /// Waits for spawned players to exit by themselves (so their CPU time is counted), stopping any still
    /// running after 3 s.
    static func reap(_ children: [pid_t]) async {
        for child in children {
            let deadline = ProcessInfo.processInfo.systemUptime + 3
            while ChildProcess.exitDescription(child) == nil {
                guard ProcessInfo.processInfo.systemUptime < deadline else {
                    ChildProcess.terminate(child)
                    break
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}

extension SoundScenario {
    /// CPU time and allocations per tap, for each path, against decode + new stream per play.
    func costRows(costs: [(String, TapCost)]) -> [BenchRow] {
        let baseline = "decode + new stream"
        let cpuMedians = Dictionary(uniqueKeysWithValues: costs.map { ($0.0, Statistics($0.1.cpu).median) })
        let cacheWins = cpuMedians["sample cache"].map { cache in
            cpuMedians.filter { $0.key != "sample cache" && $0.key != "fallback stream" }.values.allSatisfy { cache < $0 }
        }
        var rows: [BenchRow] = []
        for (path, cost) in costs {
            let isCache = path == "sample cache"
            rows.append(BenchRow(scenario: name, name: "\(path): CPU time per tap", unit: .seconds, stats: Statistics(cost.cpu),
                                 baseline: path == baseline ? nil : "\(baseline): CPU time per tap",
                                 target: isCache ? "below decode-per-play and paplay" : nil, met: isCache ? cacheWins : nil,
                                 note: "\(cost.cpu.count) blocks of \(TapCost.perBlock) taps, idle cost taken off"
                                    + (path == "paplay" ? ", each paplay process's CPU included" : "")
                                    + (path == "fallback stream" ? "; its stream runs between taps too, so a tap's share is within that stream's own noise" : "")))
            rows.append(BenchRow(scenario: name, name: "\(path): allocations per tap", unit: .count, stats: Statistics(cost.allocations),
                                 note: !ProcessCost.countsAllocations ? "not counted in a sanitizer build"
                                    : path == "paplay" ? "this process only (spawning); paplay's own are not counted" : "every thread of the process"))
        }
        return rows
    }
}
