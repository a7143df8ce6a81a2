import Foundation
import PajamaStorage
import PajamaTestSupport

/// `play`: `pajama play` reading the clockwork atlas to an ending (9 beats, 7 choices, pictures decoded)
/// from process start to exit, the transcript to /dev/null. The baseline is spawning `/bin/echo` the same
/// way: what starting any process costs on this machine.
struct PlayScenario: Scenario {
    let name = "play"
    let summary = "pajama play clockwork-atlas to an ending, process start to exit"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let binary = try StartupScenario.builtPajama()
        let home = try TemporaryDirectory(prefix: "pajama-bench-play")
        defer { home.remove() }
        let environment = Paths.environment(home: home.path).merging(["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        let atlas = PackagePaths.stories.appendingPathComponent("clockwork-atlas").path
        let arguments = ["play", atlas, "--choices", "2,1,1,1,1,2,2", "--transcript", "/dev/null"]
        let runs = options.iterations(30)
        let echo = try measure(iterations: runs, warmup: 2) {
            _ = try ChildProcess.run("/bin/echo", ["ready"], environment: environment)
        }
        var failure: String?
        let play = try measure(iterations: runs, warmup: 2) {
            let result = try ChildProcess.run(binary, arguments, environment: environment)
            if result.status != 0 { failure = "exit \(result.status): \(result.stderr)" }
        }
        if let failure { throw ScenarioFailure(description: "pajama play failed: \(failure)") }
        let stats = Statistics(play)
        return [
            BenchRow(scenario: name, name: "spawn /bin/echo", unit: .seconds, stats: Statistics(echo), note: "baseline: starting a process"),
            BenchRow(scenario: name, name: "play clockwork-atlas to an ending", unit: .seconds, stats: stats, baseline: "spawn /bin/echo",
                     target: "< 100 ms", met: stats.median < 0.100, note: "9 beats, 7 choices, transcript to /dev/null"),
        ]
    }
}
