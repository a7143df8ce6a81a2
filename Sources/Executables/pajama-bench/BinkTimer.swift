import Foundation
import PajamaJSON
import PajamaTestSupport

/// bink's side: scripts/ink-bench-bink.py in the venv scripts/ink-bink.sh makes (.build/bink-venv).
struct BinkTimer {
    static let warmup = 10

    struct Result {
        var samples: [Double]
        /// The thread's CPU time of each sample.
        var cpu: [Double]
        var digest: String?
        var errors: Int?
        /// The entry points bink ran (`paths`).
        var kept: [String]?

        /// Whether bink said what PajamaInk said (its digest, 16 hex digits, is `digest`); nil without one.
        func saidTheSame(as digest: UInt64) -> Bool? {
            self.digest.map { UInt64($0, radix: 16) == digest }
        }
    }

    let python = PackagePaths.root.appendingPathComponent(".build/bink-venv/bin/python").path
    let script = PackagePaths.root.appendingPathComponent("scripts/ink-bench-bink.py").path
    var installed: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// The script's answer, or nil when bink is not installed.
    func run(_ arguments: [String]) throws -> Result? {
        guard installed else { return nil }
        let result = try ChildProcess.run(python, [script] + arguments, timeout: 600)
        guard result.status == 0, let object = try? JSONParser.parse(result.stdout), case .object = object else {
            throw ScenarioFailure(description: "ink-bench-bink.py \(arguments.prefix(2).joined(separator: " ")) failed (\(result.status)): \(result.stderr.suffix(400))")
        }
        func numbers(_ value: JSON?) -> [Double]? {
            value?.arrayValue?.compactMap { element -> Double? in
                switch element {
                case .int(let i): Double(i)
                case .double(let d): d
                default: nil
                }
            }
        }
        guard let samples = numbers(object["samples"]) else {
            throw ScenarioFailure(description: "ink-bench-bink.py \(arguments.prefix(2).joined(separator: " ")): \(object["error"]?.stringValue ?? "no samples")")
        }
        return Result(samples: samples, cpu: numbers(object["cpu"]) ?? [], digest: object["digest"]?.stringValue,
                      errors: object["errors"].flatMap { if case .int(let i) = $0 { i } else { nil } },
                      kept: object["kept"]?.arrayValue?.compactMap(\.stringValue))
    }
}
