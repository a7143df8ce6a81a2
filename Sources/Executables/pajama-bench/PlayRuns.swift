import Foundation
import PajamaStorage
import PajamaTestSupport

/// `pajama play` of a story that never ends, timed process start to exit: the same choice `count` times, then
/// the choices run out (exit 1, by design). Shared by the `ink-path` and `twine` rows.
enum PlayRuns {
    /// The runs' times (seconds); throws when a run did not end as expected.
    static func untilChoicesRunOut(file: String, home: String, choice: Int, count: Int, iterations: Int) throws -> [Double] {
        let binary = try StartupScenario.builtPajama()
        let environment = Paths.environment(home: home).merging(["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]) { $1 }
        let arguments = ["play", file, "--seed", "7", "--choices", Array(repeating: "\(choice)", count: count).joined(separator: ","),
                         "--transcript", "/dev/null"]
        var failure: String?
        let times = try measure(iterations: iterations, warmup: 1) {
            let result = try ChildProcess.run(binary, arguments, environment: environment)
            if result.status != 1 || !result.stderr.contains("the choices ran out after \(count)") {
                failure = "exit \(result.status): \(result.stderr)"
            }
        }
        if let failure { throw ScenarioFailure(description: "pajama play failed: \(failure)") }
        return times
    }
}
