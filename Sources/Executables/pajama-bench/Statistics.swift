/// Summary of a series of measurements (durations in seconds, or plain counts).
struct Statistics: Sendable {
    let count: Int
    let median: Double
    let p95: Double
    let p99: Double
    let min: Double
    let max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let rank = Int((p * Double(sorted.count - 1)).rounded())
            return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
        }
        median = percentile(0.5)
        p95 = percentile(0.95)
        p99 = percentile(0.99)
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
    }
}
