import PajamaTestSupport

/// `decode`: parsing and decoding a beat file, the work behind every disk and network load.
struct DecodeScenario: Scenario {
    let name = "decode"
    let summary = "decode a bundled beat file from bytes (strict parser + model)"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let start = try BundledStartBeat()
        let samples = try measure(iterations: options.iterations(5_000)) { _ = try start.beat() }
        return [BenchRow(scenario: name, name: "beat decode (\(start.bytes.count) B)", unit: .seconds, stats: Statistics(samples))]
    }
}
