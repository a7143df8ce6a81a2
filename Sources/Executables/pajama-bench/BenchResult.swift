/// One row of the table: a measured series, a unit, an optional baseline row and target.
struct BenchRow: Sendable {
    enum Unit: String, Sendable {
        case seconds
        case count
        case megabytes = "MB"
        case percent = "%"
    }

    var scenario: String
    var name: String
    var unit: Unit
    var stats: Statistics
    /// The name of the row in the same scenario this one is compared with (ratio = baseline median / this median).
    var baseline: String?
    /// A human statement of the target, e.g. "p50 < 20 us".
    var target: String?
    /// Whether the target is met, when there is one.
    var met: Bool?
    /// Free text (request counts, notes).
    var note: String = ""
}

/// Formats values for the table.
enum Format {
    static func value(_ v: Double, _ unit: BenchRow.Unit) -> String {
        guard v.isFinite else { return "-" }
        switch unit {
        case .seconds:
            if v < 1e-3 { return String(format1: v * 1e6) + " us" }
            if v < 1 { return String(format1: v * 1e3) + " ms" }
            return String(format1: v) + " s"
        case .count: return v == v.rounded() ? String(Int(v)) : String(format1: v)
        case .megabytes: return String(format1: v) + " MB"
        case .percent: return String(format1: v) + " %"
        }
    }

    /// "12x faster" / "3.4x slower": how a row's median compares with its baseline's.
    static func ratio(baseline: Double, value: Double) -> String {
        let r = baseline / value
        guard r.isFinite, r > 0 else { return "" }
        return r >= 1 ? String(format1: r) + "x faster" : String(format1: 1 / r) + "x slower"
    }
}

extension String {
    /// One decimal place for small numbers, none for large ones.
    init(format1 v: Double) {
        if abs(v) >= 100 {
            self = String(Int(v.rounded()))
        } else {
            let scaled = (v * 10).rounded() / 10
            self = String(scaled)
        }
    }

    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
