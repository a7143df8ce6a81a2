/// A named benchmark scenario; `run` returns the rows it measured (or throws `Skip` with a reason).
protocol Scenario: Sendable {
    var name: String { get }
    var summary: String { get }
    func run(_ options: BenchOptions) async throws -> [BenchRow]
}

/// A scenario that cannot run on this machine (no sound server, say) says why.
struct Skip: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// A scenario whose measured program did not do what it measures (a wrong exit status, say).
struct ScenarioFailure: Error, CustomStringConvertible {
    var description: String
}

/// Knobs shared by the scenarios.
struct BenchOptions: Sendable {
    /// Scale factor for iteration counts (`--quick` uses 0.2 for a smoke run).
    var scale: Double = 1
    /// Added latency of the HTTP server in the preload scenario.
    var latencyMilliseconds: Int = 80

    func iterations(_ full: Int) -> Int { max(5, Int(Double(full) * scale)) }
}
